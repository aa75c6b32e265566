// a small UART in the style of hobby cores: no reset on most registers (power-up values by
// initialisers), a baud divisor register that only holds its initial value, a status
// register whose upper bits are always zero
module uartlite (
    input         CLK,
    input         RES,
    input         RD,
    input         WR,
    input  [3:0]  BE,
    input  [31:0] DATAI,
    output [31:0] DATAO,
    output        IRQ,
    input         RXD,
    output        TXD
);
    reg [15:0] TIMER  = 16'd434;
    reg [7:0]  XFIFO  = 0;
    reg        XREQ   = 0;
    reg        XACK   = 0;
    reg [15:0] XBAUD  = 0;
    reg [3:0]  XSTATE = 0;
    reg [7:0]  RFIFO  = 0;
    reg        RREQ   = 0;
    reg        RACK   = 0;
    reg [15:0] RBAUD  = 0;
    reg [3:0]  RSTATE = 0;
    reg [2:0]  RXDFF  = 3'b111;
    reg [7:0]  STATEFF = 0;
    wire [7:0] STATE = {6'd0, RREQ != RACK, XREQ != XACK};

    always @(posedge CLK) begin
        if (WR && BE[1]) begin
            XFIFO <= DATAI[15:8];
            XREQ  <= !XACK;
        end
        if (RES) begin
            RACK    <= RREQ;
            STATEFF <= STATE;
        end else if (RD) begin
            if (BE[1]) RACK <= RREQ;
            if (BE[0]) STATEFF <= STATE;
        end
    end

    assign IRQ   = |(STATE ^ STATEFF);
    assign DATAO = {TIMER, RFIFO, STATE};

    always @(posedge CLK) begin
        XBAUD  <= XSTATE == 4'd6 ? TIMER : XBAUD ? XBAUD - 1 : TIMER;
        XSTATE <= RES || XSTATE == 4'd1 ? 4'd6 :
                  XSTATE == 4'd6 ? XSTATE + (XREQ != XACK) : XSTATE + (XBAUD == 0);
        XACK   <= RES || XSTATE == 4'd1 ? XREQ : XACK;
    end

    assign TXD = XSTATE[3] ? XFIFO[XSTATE[2:0]] : XSTATE == 4'd7 ? 1'b0 : 1'b1;

    always @(posedge CLK) begin
        RXDFF  <= (RXDFF << 1) | RXD;
        RBAUD  <= RSTATE == 4'd6 ? {1'b0, TIMER[15:1]} : RBAUD ? RBAUD - 1 : TIMER;
        RSTATE <= RES || RSTATE == 4'd1 ? 4'd6 :
                  RSTATE == 4'd6 ? RSTATE + (RXDFF[2:1] == 2'b10) : RSTATE + (RBAUD == 0);
        RREQ   <= RSTATE == 4'd1 ? !RACK : RREQ;
        if (RSTATE[3]) RFIFO[RSTATE[2:0]] <= RXDFF[2];
    end
endmodule
