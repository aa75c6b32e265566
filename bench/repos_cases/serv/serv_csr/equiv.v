// Derived from olofk/serv rtl/serv_csr.v at 9baea86ff0e4 (ISC, see serv/LICENSE).
//   SPDX-FileCopyrightText: 2018 Olof Kindgren <olof@award-winning.me>
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// serv_csr, rewritten: the CSR source mux is a case statement, registers renamed, the
// mcause update split into W=1/W=4 generate branches, statements reordered.
`default_nettype none
module serv_csr
  #(
    parameter RESET_STRATEGY = "MINI",
    parameter W = 1,
    parameter B = W-1
  )
  (
   input wire        i_clk,
   input wire        i_rst,
   input wire        i_trig_irq,
   input wire        i_en,
   input wire        i_cnt0to3,
   input wire        i_cnt3,
   input wire        i_cnt7,
   input wire        i_cnt11,
   input wire        i_cnt12,
   input wire        i_cnt_done,
   input wire        i_mem_op,
   input wire        i_mtip,
   input wire        i_trap,
   output reg        o_new_irq,
   input wire        i_e_op,
   input wire        i_ebreak,
   input wire        i_mem_cmd,
   input wire        i_mstatus_en,
   input wire        i_mie_en,
   input wire        i_mcause_en,
   input wire [1:0]  i_csr_source,
   input wire        i_mret,
   input wire        i_csr_d_sel,
   input wire [B:0]  i_rf_csr_out,
   output wire [B:0] o_csr_in,
   input wire [B:0]  i_csr_imm,
   input wire [B:0]  i_rs1,
   output wire [B:0] o_q);

   reg       mie_q;      // mstatus.MIE
   reg       mpie_q;     // mstatus.MPIE
   reg       mtie_q;     // mie.MTIE
   reg       cause_int;  // mcause[31]
   reg [3:0] cause_lo;   // mcause[3:0]
   reg       irq_q;
   reg [B:0] wdata;

   wire [B:0] src = i_csr_d_sel ? i_csr_imm : i_rs1;
   wire [B:0] rdata;
   wire [B:0] status_bits;
   wire [B:0] cause_bits;

   always @(*) begin
      case (i_csr_source)
        2'b01:   wdata = src;
        2'b10:   wdata = rdata | src;
        2'b11:   wdata = rdata & ~src;
        default: wdata = rdata;
      endcase
   end

   generate
      if (W == 1) begin : gen_mstatus_w1
         assign status_bits = i_cnt12 | i_cnt11 | (i_cnt3 & mie_q);
      end else if (W == 4) begin : gen_mstatus_w4
         assign status_bits = {(i_cnt3 & mie_q) | i_cnt11, 2'b00, i_cnt12};
      end
   endgenerate

   assign cause_bits = i_cnt0to3 ? cause_lo[B:0] :
                       i_cnt_done ? {cause_int, {B{1'b0}}} : {W{1'b0}};

   assign rdata = i_rf_csr_out |
                  (cause_bits & {W{i_en & i_mcause_en}}) |
                  (status_bits & {W{i_en & i_mstatus_en}});

   assign o_q      = rdata;
   assign o_csr_in = wdata;

   wire tirq = mtie_q & mie_q & i_mtip;
   wire trap_end = i_cnt_done & i_trap;

   always @(posedge i_clk) begin
      if (trap_end)
        mpie_q <= mie_q;

      if (i_mret | trap_end | (i_en & i_cnt3 & i_mstatus_en))
        mie_q <= (i_mret ? mpie_q : wdata[B]) & ~i_trap;

      if (i_trap | (i_cnt_done & i_mcause_en))
        cause_int <= i_trap ? o_new_irq : wdata[B];

      if (trap_end | (i_cnt0to3 & i_en & i_mcause_en)) begin
         cause_lo[3] <= (~i_trap & wdata[B]) | (~i_ebreak & i_e_op);
         if (W == 1) begin
            cause_lo[2] <= (~i_trap & cause_lo[3]) | i_mem_op | o_new_irq;
            cause_lo[1] <= (~i_trap & cause_lo[2]) | (i_mem_cmd & i_mem_op) | i_e_op | o_new_irq;
            cause_lo[0] <= (~i_trap & cause_lo[1]) | i_e_op | o_new_irq;
         end else begin
            cause_lo[2] <= (~i_trap & wdata[(W == 1) ? 0 : 2]) | i_mem_op | o_new_irq;
            cause_lo[1] <= (~i_trap & wdata[(W == 1) ? 0 : 1]) | (i_mem_cmd & i_mem_op) | i_e_op | o_new_irq;
            cause_lo[0] <= (~i_trap & wdata[0]) | i_e_op | o_new_irq;
         end
      end

      if (i_cnt7 & i_mie_en)
        mtie_q <= wdata[B];

      if (i_trig_irq) begin
         o_new_irq <= ~irq_q & tirq;
         irq_q     <= tirq;
      end

      if (i_rst && RESET_STRATEGY != "NONE") begin
         mtie_q    <= 1'b0;
         o_new_irq <= 1'b0;
      end
   end

endmodule
