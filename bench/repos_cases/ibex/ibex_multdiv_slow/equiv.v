// Derived from lowRISC/ibex rtl/ibex_multdiv_slow.sv at 8b8ee086aef7 (Apache-2.0, see ibex/LICENSE).
//   Copyright lowRISC contributors.
//   Copyright 2018 ETH Zurich and University of Bologna, see also CREDITS.md.
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// ibex_multdiv_slow, rewritten: registers and FSM signals renamed, the greater-or-equal test
// as an xor select, valid/enable/result expressions reordered or inverted; assertions and the
// INC_ASSERT/FORMAL ifdef blocks left out.
module ibex_multdiv_slow
(
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             mult_en_i,  // dynamic enable signal, for FSM control
  input  logic             div_en_i,   // dynamic enable signal, for FSM control
  input  logic             mult_sel_i, // static decoder output, for data muxes
  input  logic             div_sel_i,  // static decoder output, for data muxes
  input  ibex_pkg::md_op_e operator_i,
  input  logic  [1:0]      signed_mode_i,
  input  logic [31:0]      op_a_i,
  input  logic [31:0]      op_b_i,
  input  logic [33:0]      alu_adder_ext_i,
  input  logic [31:0]      alu_adder_i,
  input  logic             equal_to_zero_i,
  input  logic             data_ind_timing_i,

  output logic [32:0]      alu_operand_a_o,
  output logic [32:0]      alu_operand_b_o,

  input  logic [33:0]      imd_val_q_i[2],
  output logic [33:0]      imd_val_d_o[2],
  output logic  [1:0]      imd_val_we_o,

  input  logic             multdiv_ready_id_i,

  output logic [31:0]      multdiv_result_o,

  output logic             valid_o
);

  import ibex_pkg::*;

  typedef enum logic [2:0] {
    MD_IDLE, MD_ABS_A, MD_ABS_B, MD_COMP, MD_LAST, MD_CHANGE_SIGN, MD_FINISH
  } md_fsm_e;
  md_fsm_e st_q, st_d;

  logic [32:0] acc_q, acc_d;
  logic        unused_imd_val0;
  logic [ 1:0] unused_imd_val1;

  logic [32:0] res_adder_l;
  logic [32:0] res_adder_h;

  logic [ 4:0] cnt_q, cnt_d;
  logic [32:0] b_sh_q, b_sh_d;
  logic [32:0] a_sh_q, a_sh_d;
  logic [32:0] op_a_ext, op_b_ext;
  logic [32:0] one_shift;
  logic [32:0] op_a_bw_pp, op_a_bw_last_pp;
  logic [31:0] b_0;
  logic        sign_a, sign_b;
  logic [32:0] quo_nxt;
  logic [31:0] rem_nxt;
  logic [31:0] num_q, num_d;
  logic        ge;
  logic        div_change_sign, rem_change_sign;
  logic        dbz_d, dbz_q;
  logic        hold;
  logic        step_en;

   // (acc_q + a_sh_q)
  assign res_adder_l = alu_adder_ext_i[32:0];
   // (acc_q + a_sh_q)>>1
  assign res_adder_h = alu_adder_ext_i[33:1];

  /////////////////////
  // ALU Operand MUX //
  /////////////////////

  // Intermediate value register shared with ALU
  assign imd_val_d_o[0]  = {1'b0,acc_d};
  assign imd_val_we_o[0] = ~hold;
  assign acc_q  = imd_val_q_i[0][32:0];
  assign unused_imd_val0 = imd_val_q_i[0][33];

  assign imd_val_d_o[1]  = {2'b00, num_d};
  assign imd_val_we_o[1] = step_en;
  assign num_q  = imd_val_q_i[1][31:0];
  assign unused_imd_val1 = imd_val_q_i[1][33:32];

  always_comb begin
    alu_operand_a_o = acc_q;

    unique case (operator_i)

      MD_OP_MULL: begin
        alu_operand_b_o = op_a_bw_pp;
      end

      MD_OP_MULH: begin
        alu_operand_b_o = (st_q == MD_LAST) ? op_a_bw_last_pp : op_a_bw_pp;
      end

      MD_OP_DIV,
      MD_OP_REM: begin
        unique case (st_q)
          MD_IDLE: begin
            // 0 - B = 0 iff B == 0
            alu_operand_a_o = {32'h0  , 1'b1};
            alu_operand_b_o = {~op_b_i, 1'b1};
          end
          MD_ABS_A: begin
            // ABS(A) = 0 - A
            alu_operand_a_o = {32'h0  , 1'b1};
            alu_operand_b_o = {~op_a_i, 1'b1};
          end
          MD_ABS_B: begin
            // ABS(B) = 0 - B
            alu_operand_a_o = {32'h0  , 1'b1};
            alu_operand_b_o = {~op_b_i, 1'b1};
          end
          MD_CHANGE_SIGN: begin
            // ABS(Quotient) = 0 - Quotient (or Reminder)
            alu_operand_a_o = {32'h0  , 1'b1};
            alu_operand_b_o = {~acc_q[31:0], 1'b1};
          end
          default: begin
            // Division
            alu_operand_a_o = {acc_q[31:0], 1'b1}; // it contains the remainder
            alu_operand_b_o = {~b_sh_q[31:0], 1'b1};  // -denominator two's compliment
          end
        endcase
      end
      default: begin
        alu_operand_a_o = acc_q;
        alu_operand_b_o = {~b_sh_q[31:0], 1'b1};
      end
    endcase
  end

  // Multiplier partial product calculation
  assign b_0             = {32{b_sh_q[0]}};
  assign op_a_bw_pp      = { ~(a_sh_q[32] & b_sh_q[0]),  (a_sh_q[31:0] & b_0) };
  assign op_a_bw_last_pp = {  (a_sh_q[32] & b_sh_q[0]), ~(a_sh_q[31:0] & b_0) };

  // Sign extend the input operands
  assign sign_a   = op_a_i[31] & signed_mode_i[0];
  assign sign_b   = op_b_i[31] & signed_mode_i[1];

  assign op_a_ext = {sign_a, op_a_i};
  assign op_b_ext = {sign_b, op_b_i};

  // Divider calculations

  // The adder in the ALU computes Remainder - Divisor. If Remainder - Divisor >= 0,
  // ge is true, the next Remainder is the subtraction result and the Quotient
  // cnt_q-th bit is set to 1.
  assign ge = (acc_q[31] ^ b_sh_q[31]) ? acc_q[31] : ~res_adder_h[31];

  assign one_shift      = {32'b0, 1'b1} << cnt_q;

  assign rem_nxt = ge ? res_adder_h[31:0]        : acc_q[31:0];
  assign quo_nxt  = ge ? a_sh_q | one_shift : a_sh_q;

  assign div_change_sign  = ~dbz_q & (sign_b ^ sign_a);
  assign rem_change_sign  = sign_a;

  always_comb begin
    cnt_d  = cnt_q;
    acc_d   = acc_q;
    b_sh_d     = b_sh_q;
    a_sh_d     = a_sh_q;
    num_d   = num_q;
    st_d       = st_q;
    hold     = 1'b0;
    dbz_d    = dbz_q;
    if (mult_sel_i || div_sel_i) begin
      unique case (st_q)
        MD_IDLE: begin
          unique case (operator_i)
            MD_OP_MULL: begin
              a_sh_d   = op_a_ext << 1;
              acc_d = {       ~(op_a_ext[32]   &     op_b_i[0]),
                                         op_a_ext[31:0] & {32{op_b_i[0]}}  };
              b_sh_d   = op_b_ext >> 1;
              // Proceed with multiplication by 0/1 in data-independent time mode
              // SEC_CM: CORE.DATA_REG_SW.SCA
              st_d     = (!data_ind_timing_i && ((op_b_ext >> 1) == 0)) ? MD_LAST : MD_COMP;
            end
            MD_OP_MULH: begin
              a_sh_d   = op_a_ext;
              acc_d = { 1'b1, ~(op_a_ext[32]   &     op_b_i[0]),
                                         op_a_ext[31:1] & {31{op_b_i[0]}}  };
              b_sh_d   = op_b_ext >> 1;
              st_d     = MD_COMP;
            end
            MD_OP_DIV: begin
              // Check if the denominator is 0
              // quotient for division by 0 is specified to be -1
              // Note with data-independent time option, the full divide operation will proceed as
              // normal and will naturally return -1
              acc_d = {33{1'b1}};
              // SEC_CM: CORE.DATA_REG_SW.SCA
              st_d     = (!data_ind_timing_i && equal_to_zero_i) ? MD_FINISH : MD_ABS_A;
              // Record that this is a div by zero to stop the sign change at the end of the
              // division (in data_ind_timing mode).
              dbz_d  = equal_to_zero_i;
            end
            MD_OP_REM: begin
              // Check if the denominator is 0
              // remainder for division by 0 is specified to be the numerator (operand a)
              // Note with data-independent time option, the full divide operation will proceed as
              // normal and will naturally return operand a
              acc_d = op_a_ext;
              // SEC_CM: CORE.DATA_REG_SW.SCA
              st_d     = (!data_ind_timing_i && equal_to_zero_i) ? MD_FINISH : MD_ABS_A;
            end
            default:;
          endcase
          cnt_d   = 5'd31;
        end

        MD_ABS_A: begin
          // quotient
          a_sh_d   = '0;
          // A abs value
          num_d = sign_a ? alu_adder_i : op_a_i;
          st_d     = MD_ABS_B;
        end

        MD_ABS_B: begin
          // remainder
          acc_d = {32'h0, num_q[31]};
          // B abs value
          b_sh_d   = sign_b ? {1'b0, alu_adder_i} : {1'b0, op_b_i};
          st_d     = MD_COMP;
        end

        MD_COMP: begin
          cnt_d = cnt_q - 5'h1;
          unique case (operator_i)
            MD_OP_MULL: begin
              acc_d = res_adder_l;
              a_sh_d   = a_sh_q << 1;
              b_sh_d   = b_sh_q >> 1;
              // Multiplication is complete once op_b is zero, unless in data_ind_timing mode where
              // the maximum possible shift-add operations will be completed regardless of op_b
              // SEC_CM: CORE.DATA_REG_SW.SCA
              st_d     = ((!data_ind_timing_i && (b_sh_d == 0)) ||
                                (cnt_q == 5'd1)) ? MD_LAST : MD_COMP;
            end
            MD_OP_MULH: begin
              acc_d = res_adder_h;
              a_sh_d   = a_sh_q;
              b_sh_d   = b_sh_q >> 1;
              st_d     = (cnt_q == 5'd1) ? MD_LAST : MD_COMP;
            end
            MD_OP_DIV,
            MD_OP_REM: begin
              acc_d = {rem_nxt[31:0], num_q[cnt_d]};
              a_sh_d   = quo_nxt;
              st_d     = (cnt_q == 5'd1) ? MD_LAST : MD_COMP;
            end
            default: ;
          endcase
        end

        MD_LAST: begin
          unique case (operator_i)
            MD_OP_MULL: begin
              acc_d = res_adder_l;

              // Note no state transition will occur if hold is set
              st_d   = MD_IDLE;
              hold = ~multdiv_ready_id_i;
            end
            MD_OP_MULH: begin
              acc_d = res_adder_l;
              st_d     = MD_IDLE;

              // Note no state transition will occur if hold is set
              st_d   = MD_IDLE;
              hold = ~multdiv_ready_id_i;
            end
            MD_OP_DIV: begin
              // this time we save the quotient in acc_q since we do not need anymore the
              // remainder
              acc_d = quo_nxt;
              st_d     = MD_CHANGE_SIGN;
            end
            MD_OP_REM: begin
              // this time we do not save the quotient anymore since we need only the remainder
              acc_d = {1'b0, rem_nxt[31:0]};
              st_d     = MD_CHANGE_SIGN;
            end
            default: ;
          endcase
        end

        MD_CHANGE_SIGN: begin
          st_d = MD_FINISH;
          unique case (operator_i)
            MD_OP_DIV:
              acc_d = div_change_sign ? {1'b0,alu_adder_i} : acc_q;
            MD_OP_REM:
              acc_d = rem_change_sign ? {1'b0,alu_adder_i} : acc_q;
            default: ;
          endcase
        end

        MD_FINISH: begin
          // Note no state transition will occur if hold is set
          st_d   = MD_IDLE;
          hold = ~multdiv_ready_id_i;
        end

        default: begin
          st_d = MD_IDLE;
        end
      endcase // st_q
    end // (mult_sel_i || div_sel_i)
  end


  //////////////////////////////////////////
  // Mutliplier / Divider state registers //
  //////////////////////////////////////////

  assign step_en = ~hold & (div_en_i | mult_en_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q  <= 5'h0;
      b_sh_q     <= 33'h0;
      a_sh_q     <= 33'h0;
      st_q       <= MD_IDLE;
      dbz_q    <= 1'b0;
    end else if (step_en) begin
      cnt_q  <= cnt_d;
      b_sh_q     <= b_sh_d;
      a_sh_q     <= a_sh_d;
      st_q       <= st_d;
      dbz_q    <= dbz_d;
    end
  end

  /////////////
  // Outputs //
  /////////////

  assign valid_o = ((operator_i == MD_OP_MULH | operator_i == MD_OP_MULL) & st_q == MD_LAST) |
                   (st_q == MD_FINISH);

  assign multdiv_result_o = !div_en_i ? res_adder_l[31:0] : acc_q[31:0];

  ////////////////
  // Assertions //
  ////////////////

  // State must be valid.
endmodule
