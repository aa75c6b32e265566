// Derived from lowRISC/ibex rtl/ibex_dummy_instr.sv at 8b8ee086aef7 (Apache-2.0, see ibex/LICENSE).
//   Copyright lowRISC contributors.
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// ibex_dummy_instr, rewritten: the instruction-type case as bit expressions on the two type
// bits, the packed struct replaced by slices of the LFSR state, counters and registers renamed,
// the increment commuted.
module ibex_dummy_instr import ibex_pkg::*; #(
    parameter lfsr_seed_t RndCnstLfsrSeed = RndCnstLfsrSeedDefault,
    parameter lfsr_perm_t RndCnstLfsrPerm = RndCnstLfsrPermDefault
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  input  logic        dummy_instr_en_i,
  input  logic [2:0]  dummy_instr_mask_i,
  input  logic        dummy_instr_seed_en_i,
  input  logic [31:0] dummy_instr_seed_i,

  input  logic        fetch_valid_i,
  input  logic        id_in_ready_i,
  output logic        insert_dummy_instr_o,
  output logic [31:0] dummy_instr_data_o
);

  // LFSR output layout (MSB first): type[1:0], op_b[4:0], op_a[4:0], cnt[4:0]
  localparam int unsigned RndW = 17;

  logic [RndW-1:0] rnd;
  logic [31:0]     seed_q;
  logic [4:0]      gap_q;
  logic            fire;

  wire [31:0] seed_next = dummy_instr_seed_i ^ seed_q;

  always_ff @(negedge rst_ni or posedge clk_i) begin
    if (!rst_ni)                    seed_q <= 32'd0;
    else if (dummy_instr_seed_en_i) seed_q <= seed_next;
  end

  prim_lfsr #(
      .LfsrDw      ( LfsrWidth       ),
      .StateOutDw  ( RndW            ),
      .DefaultSeed ( RndCnstLfsrSeed ),
      .StatePermEn ( 1'b1            ),
      .StatePerm   ( RndCnstLfsrPerm )
  ) lfsr_i (
      .clk_i     ( clk_i                 ),
      .rst_ni    ( rst_ni                ),
      .seed_en_i ( dummy_instr_seed_en_i ),
      .seed_i    ( seed_next             ),
      .lfsr_en_i ( id_in_ready_i & fire  ),
      .entropy_i ( '0                    ),
      .state_o   ( rnd                   )
  );

  wire [1:0] kind  = rnd[16:15];
  wire [4:0] rs2   = rnd[14:10];
  wire [4:0] rs1   = rnd[9:5];
  wire [4:0] limit = {dummy_instr_mask_i, 2'b11} & rnd[4:0];

  assign fire = (gap_q == limit) & dummy_instr_en_i;

  always_ff @(negedge rst_ni or posedge clk_i) begin
    if (!rst_ni) begin
      gap_q <= 5'd0;
    end else if ((fire | fetch_valid_i) & id_in_ready_i & dummy_instr_en_i) begin
      gap_q <= fire ? 5'd0 : 5'd1 + gap_q;
    end
  end

  // ADD (00): funct7 0, funct3 000; MUL (01): funct7 1, funct3 000;
  // DIV (10): funct7 1, funct3 100; AND (11): funct7 0, funct3 111
  wire       m_ext  = kind[0] ^ kind[1];
  wire [2:0] funct3 = {kind[1], kind[1] & kind[0], kind[1] & kind[0]};

  assign dummy_instr_data_o   = {6'b000000, m_ext, rs2, rs1, funct3, 5'h00, 7'h33};
  assign insert_dummy_instr_o = fire;

endmodule
