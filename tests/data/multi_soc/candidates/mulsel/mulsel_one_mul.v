module mulsel (
    input  wire [3:0] a,
    input  wire [3:0] b,
    input  wire       s,
    output wire [7:0] p
);
    assign p = a * b;
endmodule
