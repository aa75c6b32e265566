// the same UART with its registers renamed and declared and assigned in another order
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
    reg [3:0]  rx_state = 0;
    reg [15:0] rx_count = 0;
    reg [2:0]  rx_sync  = 3'b111;
    reg [7:0]  rx_data  = 0;
    reg        rx_ack   = 0;
    reg        rx_req   = 0;
    reg [7:0]  irq_seen = 0;
    reg [3:0]  tx_state = 0;
    reg [15:0] tx_count = 0;
    reg        tx_ack   = 0;
    reg        tx_req   = 0;
    reg [7:0]  tx_data  = 0;
    reg [15:0] divisor  = 16'd434;
    wire       tx_busy  = tx_req != tx_ack;
    wire       rx_full  = rx_req != rx_ack;
    wire [7:0] status   = {6'd0, rx_full, tx_busy};
    wire       rx_idle  = rx_state == 4'd6;
    wire       tx_idle  = tx_state == 4'd6;

    always @(posedge CLK) begin
        rx_sync <= {rx_sync[1:0], RXD};
        if (rx_state[3]) rx_data[rx_state[2:0]] <= rx_sync[2];
        if (rx_state == 4'd1) rx_req <= !rx_ack;
        if (rx_idle) rx_count <= {1'b0, divisor[15:1]};
        else if (rx_count != 0) rx_count <= rx_count - 1;
        else rx_count <= divisor;
        if (RES || rx_state == 4'd1) rx_state <= 4'd6;
        else if (rx_idle) rx_state <= rx_state + {3'd0, rx_sync[2:1] == 2'b10};
        else rx_state <= rx_state + {3'd0, rx_count == 0};
    end

    always @(posedge CLK) begin
        if (RES || tx_state == 4'd1) tx_ack <= tx_req;
        if (RES || tx_state == 4'd1) tx_state <= 4'd6;
        else tx_state <= tx_state + (tx_idle ? {3'd0, tx_busy} : {3'd0, tx_count == 0});
        tx_count <= (tx_idle || tx_count == 0) ? divisor : tx_count - 1;
    end

    always @(posedge CLK) begin
        if (RES || (RD && BE[1])) irq_seen <= status;
        if (RES || (RD && BE[1])) rx_ack <= rx_req;
        if (WR && BE[1]) begin
            tx_req  <= !tx_ack;
            tx_data <= DATAI[15:8];
        end
    end

    assign TXD   = tx_state[3] ? tx_data[tx_state[2:0]] : !(tx_state == 4'd7);
    assign IRQ   = |(status ^ irq_seen);
    assign DATAO = {divisor, rx_data, status};
endmodule
