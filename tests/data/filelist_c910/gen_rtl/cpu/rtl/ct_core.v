// A registered wrapper, last in the filelist.
module ct_core (
  input                 clk,
  input                 rst_b,
  input  [`CT_MSB:0]    op_a,
  input  [`CT_MSB:0]    op_b,
  output reg [`CT_MSB:0] res,
  output reg            sat
);
  wire [`CT_MSB:0] z;
  wire             ovf;

  ct_alu_sat u_sat (.x(op_a), .y(op_b), .z(z), .ovf(ovf));

  always @(posedge clk or negedge rst_b) begin
    if (!rst_b) begin
      res <= {`CT_WIDTH{1'b0}};
      sat <= 1'b0;
    end else begin
      res <= z;
      sat <= ovf;
    end
  end
endmodule
