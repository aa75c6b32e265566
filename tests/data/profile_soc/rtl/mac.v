module mac (
    input  wire        clk,
    input  wire        rst,
    input  wire [7:0]  a,
    input  wire [7:0]  b,
    output reg  [15:0] acc
);
    reg [7:0] ra, rb;
    always @(posedge clk) begin
        if (rst) begin
            ra <= 8'd0;
            rb <= 8'd0;
            acc <= 16'd0;
        end else begin
            ra <= a;
            rb <= b;
            acc <= acc + ra * rb;
        end
    end
endmodule
