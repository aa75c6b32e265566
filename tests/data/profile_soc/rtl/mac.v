module mac (
    input  wire        clk,
    input  wire        rst,
    input  wire [15:0] a,
    input  wire [15:0] b,
    output reg  [31:0] acc
);
    reg [15:0] ra, rb;
    always @(posedge clk) begin
        if (rst) begin
            ra <= 16'd0;
            rb <= 16'd0;
            acc <= 32'd0;
        end else begin
            ra <= a;
            rb <= b;
            acc <= acc + ra * rb;
        end
    end
endmodule
