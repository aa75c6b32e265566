// Derived from lowRISC/ibex rtl/ibex_fetch_fifo.sv at 8b8ee086aef7 (Apache-2.0, see ibex/LICENSE).
//   Copyright lowRISC contributors.
//   Copyright 2018 ETH Zurich and University of Bologna, see also CREDITS.md.
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// ibex_fetch_fifo, rewritten: signals renamed, the aligner's always_comb as muxes, the address
// increment commuted, two flags restructured; the DII_SIM ifdef branches and the assertions are
// left out (the default view).
module ibex_fetch_fifo #(
  parameter int unsigned NUM_REQS = 2,
  parameter bit          ResetAll = 1'b0
) (
  input  logic                clk_i,
  input  logic                rst_ni,

  // control signals
  input  logic                clear_i,   // clears the contents of the FIFO
  output logic [NUM_REQS-1:0] busy_o,

  // input port
  input  logic                in_valid_i,
  input  logic [31:0]         in_addr_i,
  input  logic [31:0]         in_rdata_i,
  input  logic                in_err_i,

  // force unaligned compressed based on CHERIoT bounds check
  input  logic                cheriot_force_uc_i,

  // output port
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output logic [31:0]         out_addr_o,
  output logic [31:0]         out_rdata_o,
  output logic                out_err_o,
  output logic                out_err_plus2_o
);

  localparam int unsigned DEPTH = NUM_REQS+1;

  // index 0 is used for output
  logic [DEPTH-1:0] [31:0]  dat_d,   dat_q;
  logic [DEPTH-1:0]         fault_d,     fault_q;
  logic [DEPTH-1:0]         full_d,   full_q;
  logic [DEPTH-1:0]         first_free;
  logic [DEPTH-1:0]         full_push, full_pop;
  logic [DEPTH-1:0]         load_en;

  logic                     pop;
  logic             [31:0]  rdata, dat_hi;
  logic                     err,   fault_hi, err_plus2;
  logic                     valid, ok_hi;

  logic                     lo_is_c, hi_is_c;

  logic                     step2;
  logic [31:1]              pc_inc;
  logic [31:1]              pc_d, pc_q;
  logic                     pc_en;
  logic                     unused_addr_in;

  /////////////////
  // Output port //
  /////////////////

  assign rdata = full_q[0] ? dat_q[0] : in_rdata_i;
  assign err   = full_q[0] ? fault_q[0]   : in_err_i;
  assign valid = full_q[0] | in_valid_i;

  // The FIFO contains word aligned memory fetches, but the instructions contained in each entry
  // might be half-word aligned (due to compressed instructions)
  // e.g.
  //              | 31               16 | 15               0 |
  // FIFO entry 0 | Instr 1 [15:0]      | Instr 0 [15:0]     |
  // FIFO entry 1 | Instr 2 [15:0]      | Instr 1 [31:16]    |
  //
  // The FIFO also has a direct bypass path, so a complete instruction might be made up of data
  // from the FIFO and new incoming data.
  //

  // Construct the output data for an unaligned instruction
  assign dat_hi = full_q[1] ? {dat_q[1][15:0], rdata[31:16]} :
                                        {in_rdata_i[15:0], rdata[31:16]};

  // If entry[1] is valid, an error can come from entry[0] or entry[1], unless the
  // instruction in entry[0] is compressed (entry[1] is a new instruction)
  // If entry[1] is not valid, and entry[0] is, an error can come from entry[0] or the incoming
  // data, unless the instruction in entry[0] is compressed
  // If entry[0] is not valid, the error must come from the incoming data
  assign fault_hi   = full_q[1] ? ((fault_q[1] & ~hi_is_c) | fault_q[0]) :
                                        ((full_q[0] & fault_q[0]) |
                                         (in_err_i & (~full_q[0] | ~hi_is_c)));

  // Record when an error is caused by the second half of an unaligned 32bit instruction.
  // Only needs to be correct when unaligned and if fault_hi is set
  assign err_plus2       = full_q[1] ? (fault_q[1] & ~fault_q[0]) :
                                        (in_err_i & full_q[0] & ~fault_q[0]);

  // An uncompressed unaligned instruction is only valid if both parts are available
  assign ok_hi = full_q[1] | (in_valid_i & full_q[0]);

  // If there is an error, rdata is unknown
  assign hi_is_c = cheriot_force_uc_i | ((rdata[17:16] != 2'b11) & ~err);
  assign lo_is_c   = ~(err | (&rdata[1:0]));

  ////////////////////////////////////////
  // Instruction aligner (if unaligned) //
  ////////////////////////////////////////

  // aligner as plain muxes on the halfword offset
  assign out_rdata_o     = out_addr_o[1] ? dat_hi : rdata;
  assign out_err_o       = out_addr_o[1] ? fault_hi : err;
  assign out_err_plus2_o = out_addr_o[1] & err_plus2;
  assign out_valid_o     = (out_addr_o[1] & ~hi_is_c) ? ok_hi : valid;

  /////////////////////////
  // Instruction address //
  /////////////////////////

  // Update the address on branches and every time an instruction is driven
  assign pc_en = (out_valid_o & out_ready_i) | clear_i;

  // Increment the address by two every time a compressed instruction is popped
  assign step2 = pc_q[1] ? hi_is_c :
                                           lo_is_c;

  assign pc_inc = {29'd0, ~step2, step2} + pc_q[31:1];

  assign pc_d = clear_i ? in_addr_i[31:1] :
                                  pc_inc;

  if (ResetAll) begin : g_instr_addr_ra
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        pc_q <= '0;
      end else if (pc_en) begin
        pc_q <= pc_d;
      end
    end
  end else begin : g_instr_addr_nr
    always_ff @(posedge clk_i) begin
      if (pc_en) begin
        pc_q <= pc_d;
      end
    end
  end

  // Output PC of current instruction
  assign out_addr_o      = {pc_q, 1'b0};

  // The LSB of the address is unused, since all addresses are halfword aligned
  assign unused_addr_in = in_addr_i[0];

  /////////////////
  // FIFO status //
  /////////////////

  // Indicate the fill level of fifo-entries. This is used to determine when a new request can be
  // made on the bus. The prefetch buffer only needs to know about the upper entries which overlap
  // with NUM_REQS.
  assign busy_o = full_q[DEPTH-1:DEPTH-NUM_REQS];

  /////////////////////
  // FIFO management //
  /////////////////////

  // Since an entry can contain unaligned instructions, popping an entry can leave the entry valid
  assign pop = out_ready_i & out_valid_o & (~lo_is_c | out_addr_o[1]);

  for (genvar i = 0; i < (DEPTH - 1); i++) begin : g_fifo_next
    // Calculate lowest free entry (write pointer)
    if (i == 0) begin : g_ent0
      assign first_free[i] = ~full_q[i];
    end else begin : g_ent_others
      assign first_free[i] = ~full_q[i] & full_q[i-1];
    end

    // An entry is set when an incoming request chooses the lowest available entry
    assign full_push[i] = (in_valid_i & first_free[i]) |
                             full_q[i];
    // Popping the FIFO shifts all entries down
    assign full_pop[i] = pop ? full_push[i+1] : full_push[i];
    // All entries are wiped out on a clear
    assign full_d[i] = full_pop[i] & ~clear_i;

    // data flops are enabled if there is new data to shift into it, or
    assign load_en[i] = (full_push[i+1] & pop) |
                         // a new request is incoming and this is the lowest free entry
                         (in_valid_i & first_free[i] & ~pop);

    // take the next entry or the incoming data
    assign dat_d[i]  = full_q[i+1] ? dat_q[i+1] : in_rdata_i;
    assign fault_d  [i]  = full_q[i+1] ? fault_q  [i+1] : in_err_i;
  end
  // The top entry is similar but with simpler muxing
  assign first_free[DEPTH-1] = ~full_q[DEPTH-1] & full_q[DEPTH-2];
  assign full_push     [DEPTH-1] = full_q[DEPTH-1] | (in_valid_i & first_free[DEPTH-1]);
  assign full_pop     [DEPTH-1] = pop ? 1'b0 : full_push[DEPTH-1];
  assign full_d [DEPTH-1]          = full_pop[DEPTH-1] & ~clear_i;
  assign load_en[DEPTH-1]          = in_valid_i & first_free[DEPTH-1];
  assign dat_d [DEPTH-1]          = in_rdata_i;
  assign fault_d   [DEPTH-1]          = in_err_i;

  ////////////////////
  // FIFO registers //
  ////////////////////

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q <= '0;
    end else begin
      full_q <= full_d;
    end
  end

  for (genvar i = 0; i < DEPTH; i++) begin : g_fifo_regs
    if (ResetAll) begin : g_rdata_ra
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          dat_q[i] <= '0;
          fault_q[i]   <= '0;
        end else if (load_en[i]) begin
          dat_q[i] <= dat_d[i];
          fault_q[i]   <= fault_d[i];
        end
      end
    end else begin : g_rdata_nr
      always_ff @(posedge clk_i) begin
        if (load_en[i]) begin
          dat_q[i] <= dat_d[i];
          fault_q[i]   <= fault_d[i];
        end
      end
    end
  end

endmodule
