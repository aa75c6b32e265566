// Hand-written rewrite that is NOT equivalent: the carry-in is ignored.
module verified_adder_8bit(
    input [7:0] a, b,
    input cin,
    output [7:0] sum,
    output cout);
    assign {cout, sum} = a + b;
endmodule
