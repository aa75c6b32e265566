// rtlopt: the formal check's canonical operand order for multipliers (a Yosys techmap file).
//
// Every `$mul` cell whose operands have the same signedness becomes the same product of its
// operands in a canonical order: both are extended to W = max(A_WIDTH, B_WIDTH) (sign-extended
// when signed, else zero-extended: exact, as `$mul` extends its operands to Y_WIDTH anyway, and
// when Y_WIDTH < W only the low Y_WIDTH bits of the operands matter either way), then
// lo = min(A, B) and hi = max(A, B) as unsigned W-bit words, then lo * hi. Since
// {lo, hi} = {A, B}, the product is unchanged (a * b == b * a): the rewrite keeps every
// design's behaviour, so it cannot make two different designs look equivalent.
//
// min/max are built symmetrically in A and B (every gate's operands swap, and the "A decided
// smaller" chain swaps with the "B decided smaller" chain), so `a * b` and `b * a` become
// structurally identical after structural hashing. A fully constant operand is moved to B
// without any logic (a constant product stays a constant product). Mixed signedness, two
// constants: the cell is left as it is.
//
// The new cell's type is `$__rtlopt_cmul` (so that techmap does not map it again); the
// caller renames it to `$mul` with `chtype -map`.

(* techmap_celltype = "$mul" *)
module _rtlopt_commute_mul (A, B, Y);
  parameter A_SIGNED = 0;
  parameter B_SIGNED = 0;
  parameter A_WIDTH = 1;
  parameter B_WIDTH = 1;
  parameter Y_WIDTH = 1;
  parameter _TECHMAP_CONSTMSK_A_ = 0;
  parameter _TECHMAP_CONSTMSK_B_ = 0;

  input [A_WIDTH-1:0] A;
  input [B_WIDTH-1:0] B;
  output [Y_WIDTH-1:0] Y;

  localparam W = A_WIDTH > B_WIDTH ? A_WIDTH : B_WIDTH;
  localparam A_CONST = &_TECHMAP_CONSTMSK_A_;
  localparam B_CONST = &_TECHMAP_CONSTMSK_B_;

  wire _TECHMAP_FAIL_ = (A_SIGNED != B_SIGNED) || (A_CONST && B_CONST);

  wire [W-1:0] a, b, lo, hi;
  generate
    if (A_SIGNED) begin : sign_ext
      assign a = $signed(A);
      assign b = $signed(B);
    end else begin : zero_ext
      assign a = A;
      assign b = B;
    end
  endgenerate

  generate
    if (A_CONST) begin : const_a
      assign lo = b;
      assign hi = a;
    end else if (B_CONST) begin : const_b
      assign lo = a;
      assign hi = b;
    end else begin : order
      // state above bit i: u (no difference yet), sa (a found smaller), sb (b found smaller)
      wire [W:0] u, sa, sb;
      assign u[W] = 1'b1;
      assign sa[W] = 1'b0;
      assign sb[W] = 1'b0;
      genvar i;
      for (i = 0; i < W; i = i + 1) begin : bits
        assign lo[i] = (u[i+1] & (a[i] & b[i])) | ((sa[i+1] & a[i]) | (sb[i+1] & b[i]));
        assign hi[i] = (u[i+1] & (a[i] | b[i])) | ((sa[i+1] & b[i]) | (sb[i+1] & a[i]));
        assign u[i] = u[i+1] & ~(a[i] ^ b[i]);
        assign sa[i] = sa[i+1] | (u[i+1] & (b[i] & ~a[i]));
        assign sb[i] = sb[i+1] | (u[i+1] & (a[i] & ~b[i]));
      end
    end
  endgenerate

  \$__rtlopt_cmul #(
      .A_SIGNED(A_SIGNED),
      .B_SIGNED(B_SIGNED),
      .A_WIDTH(W),
      .B_WIDTH(W),
      .Y_WIDTH(Y_WIDTH)
  ) _TECHMAP_REPLACE_ (
      .A(lo),
      .B(hi),
      .Y(Y)
  );
endmodule
