module flags (
    input  wire       clk,
    input  wire       rst,
    input  wire [1:0] sel,
    output reg        hot
);
    always @(posedge clk) begin
        if (rst) hot <= 1'b0;
        else hot <= sel[0] & ~sel[1];
    end
endmodule
