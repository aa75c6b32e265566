// Hand-written rewrite: the ripple chain of eight full adders as one addition.
module verified_adder_8bit(
    input [7:0] a, b,
    input cin,
    output [7:0] sum,
    output cout);
    assign {cout, sum} = a + b + cin;
endmodule
