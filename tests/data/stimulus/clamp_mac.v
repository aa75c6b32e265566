// A four-stage proportional-integral step with saturating arithmetic: the output is the
// upper half of a clamped sum of products. Uniform random gains saturate the products almost
// always, walking bits and corner values leave them 0 or saturated too.
module clamp_mac (
    input  wire               clk,
    input  wire               rstn,
    input  wire               en,
    input  wire        [30:0] kp,
    input  wire        [30:0] ki,
    input  wire signed [15:0] aim,
    input  wire signed [15:0] act,
    output wire signed [15:0] y
);
    reg               en1, en2, en3;
    reg        [30:0] kp0, ki0, ki1;
    reg signed [31:0] d, pk, acc, ik, s;

    function signed [31:0] sat_add(input signed [31:0] a, input signed [31:0] b);
        reg signed [32:0] t;
        begin
            t = $signed({a[31], a}) + $signed({b[31], b});
            if (t > $signed(33'h7fffffff)) sat_add = 32'h7fffffff;
            else if (t < -$signed(33'h7fffffff)) sat_add = -32'sh7fffffff;
            else sat_add = t[31:0];
        end
    endfunction

    function signed [31:0] sat_mul(input signed [31:0] a, input signed [31:0] b);
        reg signed [63:0] t;
        begin
            t = a * b;
            if (t > $signed(64'h7fffffff)) sat_mul = 32'h7fffffff;
            else if (t < -$signed(64'h7fffffff)) sat_mul = -32'sh7fffffff;
            else sat_mul = t[31:0];
        end
    endfunction

    assign y = s[31:16];
    always @(posedge clk or negedge rstn)
        if (!rstn) begin
            {en1, en2, en3} <= 3'b0;
            {kp0, ki0, ki1} <= 93'd0;
            {d, pk, acc, ik, s} <= 160'd0;
        end else begin
            {en1, en2, en3} <= {en, en1, en2};
            if (en) begin
                kp0 <= kp;
                ki0 <= ki;
                d <= $signed({{16{aim[15]}}, aim}) - $signed({{16{act[15]}}, act});
            end
            if (en1) begin
                ki1 <= ki0;
                pk <= sat_mul(d, $signed({1'b0, kp0}));
                acc <= sat_add(acc, d);
            end
            if (en2) ik <= sat_mul(acc, $signed({1'b0, ki1}));
            if (en3) s <= sat_add(pk, ik);
        end
endmodule
