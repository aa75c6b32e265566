// Leading-one detector of a 16-bit normalizer.
//
// `pos` is the index, counted from the MSB, of the first set bit of `vec` when `en` is high;
// 16 when no bit is set (or `en` is low). `zero` flags that case. Purely combinational.
module prio_enc (
  input  wire [15:0] vec,
  input  wire        en,
  output reg  [4:0]  pos,
  output wire        zero
);
  wire [15:0] v = vec & {16{en}};

  always @(*) begin
    casez (v)
      16'b1???????????????: pos = 5'd0;
      16'b01??????????????: pos = 5'd1;
      16'b001?????????????: pos = 5'd2;
      16'b0001????????????: pos = 5'd3;
      16'b00001???????????: pos = 5'd4;
      16'b000001??????????: pos = 5'd5;
      16'b0000001?????????: pos = 5'd6;
      16'b00000001????????: pos = 5'd7;
      16'b000000001???????: pos = 5'd8;
      16'b0000000001??????: pos = 5'd9;
      16'b00000000001?????: pos = 5'd10;
      16'b000000000001????: pos = 5'd11;
      16'b0000000000001???: pos = 5'd12;
      16'b00000000000001??: pos = 5'd13;
      16'b000000000000001?: pos = 5'd14;
      16'b0000000000000001: pos = 5'd15;
      default:              pos = 5'd16;
    endcase
  end

  assign zero = ~|v;
endmodule

// A neighbour in the same file: the optimizer must leave it untouched.
module parity16 (
  input  wire [15:0] d,
  output wire        p
);
  assign p = ^d;
endmodule
