module m(input clk, input [2:0] sel, output reg [5:0] q);
  always @(posedge clk) begin
    case (sel)
      3'd0: q <= 6'd10; 3'd1: q <= 6'd13; 3'd2: q <= 6'd16; 3'd3: q <= 6'd19;
      3'd4: q <= 6'd22; 3'd5: q <= 6'd25; 3'd6: q <= 6'd28; 3'd7: q <= 6'd31;
    endcase
  end
endmodule
