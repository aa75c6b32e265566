// Derived from openhwgroup/cv32e40p rtl/cv32e40p_alu_div.sv at 6033d2b1be32 (Solderpad Hardware License 0.51, see cv32e40p/LICENSE).
//   Copyright 2018 ETH Zurich and University of Bologna.
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// cv32e40p_alu_div, rewritten: registers renamed, the comparison as a select of <= / >=, the
// negation as 0 - x, the add/subtract mux inverted and commuted; the CV32E40P_ASSERT_ON
// initial block left out.
module cv32e40p_alu_div #(
    parameter C_WIDTH     = 32,
    parameter C_LOG_WIDTH = 6
) (
    input  logic                   Clk_CI,
    input  logic                   Rst_RBI,
    // input IF
    input  logic [    C_WIDTH-1:0] OpA_DI,
    input  logic [    C_WIDTH-1:0] OpB_DI,
    input  logic [C_LOG_WIDTH-1:0] OpBShift_DI,
    input  logic                   OpBIsZero_SI,
    //
    input  logic                   OpBSign_SI,  // gate this to 0 in case of unsigned ops
    input  logic [            1:0] OpCode_SI,  // 0: udiv, 2: urem, 1: div, 3: rem
    // handshake
    input  logic                   InVld_SI,
    // output IF
    input  logic                   OutRdy_SI,
    output logic                   OutVld_SO,
    output logic [    C_WIDTH-1:0] Res_DO
);

  ///////////////////////////////////////////////////////////////////////////////
  // signal declarations
  ///////////////////////////////////////////////////////////////////////////////

  logic [C_WIDTH-1:0] q_res, d_res;
  logic [C_WIDTH-1:0] q_res_rev;
  logic [C_WIDTH-1:0] q_a, d_a;
  logic [C_WIDTH-1:0] q_b, d_b;

  logic d_rem, q_rem;
  logic d_cinv, q_cinv;
  logic d_rinv, q_rinv;

  logic [C_WIDTH-1:0] AddMux_D;
  logic [C_WIDTH-1:0] AddOut_D;
  logic [C_WIDTH-1:0] AddTmp_D;
  logic [C_WIDTH-1:0] BMux_D;
  logic [C_WIDTH-1:0] OutMux_D;

  logic [C_LOG_WIDTH-1:0] q_cnt, d_cnt;
  logic cnt_done;

  logic ARegEn_S, BRegEn_S, ResRegEn_S, ABComp_S, PmSel_S, LoadEn_S;

  enum logic [1:0] {
    IDLE,
    DIVIDE,
    FINISH
  }
      d_st, q_st;


  ///////////////////////////////////////////////////////////////////////////////
  // datapath
  ///////////////////////////////////////////////////////////////////////////////

  assign PmSel_S  = LoadEn_S & ~(OpCode_SI[0] & (OpA_DI[$high(OpA_DI)] ^ OpBSign_SI));

  // muxes
  assign AddMux_D = (LoadEn_S) ? OpA_DI : q_b;

  // attention: logical shift in case of negative operand B!
  assign BMux_D   = (LoadEn_S) ? OpB_DI : {q_cinv, (q_b[$high(q_b):1])};

  genvar index;
  generate
    for (index = 0; index < C_WIDTH; index++) begin : gen_bit_swapping
      assign q_res_rev[index] = q_res[C_WIDTH-1-index];
    end
  endgenerate

  assign OutMux_D = (q_rem) ? q_a : q_res_rev;

  // invert if necessary
  assign Res_DO = (!q_rinv) ? OutMux_D : {C_WIDTH{1'b0}} - OutMux_D;

  // main comparator
  assign ABComp_S    = (OpBIsZero_SI | (|q_a)) & (q_cinv ? (q_a <= q_b) : (q_a >= q_b));

  // main adder
  assign AddTmp_D = (LoadEn_S) ? 0 : q_a;
  assign AddOut_D = (!PmSel_S) ? AddTmp_D - AddMux_D : AddMux_D + AddTmp_D;

  ///////////////////////////////////////////////////////////////////////////////
  // counter
  ///////////////////////////////////////////////////////////////////////////////

  assign d_cnt = (LoadEn_S) ? OpBShift_DI : (~cnt_done) ? q_cnt - 1 : q_cnt;

  assign cnt_done = q_cnt == '0;

  ///////////////////////////////////////////////////////////////////////////////
  // FSM
  ///////////////////////////////////////////////////////////////////////////////

  always_comb begin : p_fsm
    // default
    d_st   = q_st;

    OutVld_SO  = 1'b0;

    LoadEn_S   = 1'b0;

    ARegEn_S   = 1'b0;
    BRegEn_S   = 1'b0;
    ResRegEn_S = 1'b0;

    case (q_st)
      /////////////////////////////////
      IDLE: begin
        OutVld_SO = 1'b1;

        if (InVld_SI) begin
          OutVld_SO = 1'b0;
          ARegEn_S  = 1'b1;
          BRegEn_S  = 1'b1;
          LoadEn_S  = 1'b1;
          d_st  = DIVIDE;
        end
      end
      /////////////////////////////////
      DIVIDE: begin

        ARegEn_S   = ABComp_S;
        BRegEn_S   = 1'b1;
        ResRegEn_S = 1'b1;

        // calculation finished
        // one more divide cycle (32nd divide cycle)
        if (cnt_done) begin
          d_st = FINISH;
        end
      end
      /////////////////////////////////
      FINISH: begin
        OutVld_SO = 1'b1;

        if (OutRdy_SI) begin
          d_st = IDLE;
        end
      end
      /////////////////////////////////
      default:  /* default */;
      /////////////////////////////////
    endcase
  end


  ///////////////////////////////////////////////////////////////////////////////
  // regs
  ///////////////////////////////////////////////////////////////////////////////

  // get flags
  assign d_rem = (LoadEn_S) ? OpCode_SI[1] : q_rem;
  assign d_cinv = (LoadEn_S) ? OpBSign_SI : q_cinv;
  assign d_rinv = (LoadEn_S) ? (~OpBIsZero_SI | OpCode_SI[1]) & OpCode_SI[0] & (OpA_DI[$high(
      OpA_DI
  )] ^ OpBSign_SI) : q_rinv;

  assign d_a = (ARegEn_S) ? AddOut_D : q_a;
  assign d_b = (BRegEn_S) ? BMux_D : q_b;
  assign d_res = (LoadEn_S) ? '0 : (ResRegEn_S) ? {
    ABComp_S, q_res[$high(q_res):1]
  } : q_res;

  always_ff @(posedge Clk_CI or negedge Rst_RBI) begin : p_regs
    if (~Rst_RBI) begin
      q_st   <= IDLE;
      q_a    <= '0;
      q_b    <= '0;
      q_res  <= '0;
      q_cnt     <= '0;
      q_rem  <= 1'b0;
      q_cinv <= 1'b0;
      q_rinv  <= 1'b0;
    end else begin
      q_st   <= d_st;
      q_a    <= d_a;
      q_b    <= d_b;
      q_res  <= d_res;
      q_cnt     <= d_cnt;
      q_rem  <= d_rem;
      q_cinv <= d_cinv;
      q_rinv  <= d_rinv;
    end
  end

  ///////////////////////////////////////////////////////////////////////////////
  // assertions
  ///////////////////////////////////////////////////////////////////////////////

endmodule  // serDiv
