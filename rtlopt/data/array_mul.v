// rtlopt: a multiplier as gates whose structure depends on bit positions only (a Yosys techmap
// file for the formal check's gate-level netlist).
//
// Yosys's own mapping (alumacc, then maccmap's carry-save tree) orders partial-product bits by
// their nets, so two copies of one product over equivalent but differently named nets are built
// differently and share no internal node. Here both operands are extended to
// N = min(Y_WIDTH, A_WIDTH + B_WIDTH) bits (sign- or zero-extended as the cell says: `$mul`
// semantics), the product modulo 2^N is the sum of the rows (a << i) & b[i], each added by a
// ripple-carry adder written as gates, and it is extended to Y_WIDTH (the exact product fits
// in A_WIDTH + B_WIDTH bits: signed when an operand is signed). A
// constant operand is propagated through the gates by the netlist's and ABC's clean-up.

(* techmap_celltype = "$mul" *)
module _rtlopt_array_mul (A, B, Y);
  parameter A_SIGNED = 0;
  parameter B_SIGNED = 0;
  parameter A_WIDTH = 1;
  parameter B_WIDTH = 1;
  parameter Y_WIDTH = 1;

  input [A_WIDTH-1:0] A;
  input [B_WIDTH-1:0] B;
  output [Y_WIDTH-1:0] Y;

  localparam N = Y_WIDTH < A_WIDTH + B_WIDTH ? Y_WIDTH : A_WIDTH + B_WIDTH;

  wire [N-1:0] a, b;
  generate
    if (A_SIGNED) begin : sign_a
      assign a = $signed(A);
    end else begin : zero_a
      assign a = A;
    end
    if (B_SIGNED) begin : sign_b
      assign b = $signed(B);
    end else begin : zero_b
      assign b = B;
    end
  endgenerate

  // s[i*N +: N]: the sum of rows 0..i
  wire [N*N-1:0] s;
  genvar i, j;
  generate
    for (j = 0; j < N; j = j + 1) begin : row0
      assign s[j] = a[j] & b[0];
    end
    for (i = 1; i < N; i = i + 1) begin : rows
      wire [N:0] c;
      assign c[i] = 1'b0;
      for (j = 0; j < i; j = j + 1) begin : low
        assign s[i*N+j] = s[(i-1)*N+j];
      end
      for (j = i; j < N; j = j + 1) begin : add
        wire p = a[j-i] & b[i];
        wire x = s[(i-1)*N+j];
        wire h = x ^ p;
        assign s[i*N+j] = h ^ c[j];
        assign c[j+1] = (x & p) | (h & c[j]);
      end
    end
  endgenerate

  wire [N-1:0] prod = s[(N-1)*N +: N];
  generate
    if (A_SIGNED || B_SIGNED) begin : sign_y
      assign Y = $signed(prod);
    end else begin : zero_y
      assign Y = prod;
    end
  endgenerate
endmodule
