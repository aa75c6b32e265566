// Hand-written rewrite: one 4-bit subtraction gives all three outputs.
module comparator_3bit (
    input [2:0] A,
    input [2:0] B,
    output A_greater,
    output A_equal,
    output A_less
);
    wire [3:0] d = {1'b0, A} - {1'b0, B};
    assign A_less = d[3];
    assign A_equal = ~|d[2:0];
    assign A_greater = ~d[3] & |d[2:0];
endmodule
