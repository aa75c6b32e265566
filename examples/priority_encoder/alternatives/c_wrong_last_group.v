// A tempting but wrong variant: the lowest group is mis-numbered when only bit 0 is set.
module prio_enc (
  input  wire [15:0] vec,
  input  wire        en,
  output wire [4:0]  pos,
  output wire        zero
);
  wire [15:0] v = vec & {16{en}};
  wire [3:0] g = {|v[15:12], |v[11:8], |v[7:4], |v[3:0]};

  function [1:0] enc4(input [3:0] a);
    enc4 = a[3] ? 2'd0 : a[2] ? 2'd1 : a[1] ? 2'd2 : 2'd3;
  endfunction

  wire [1:0] hi = enc4(g);
  wire [3:0] sel = (hi == 2'd0) ? v[15:12] : (hi == 2'd1) ? v[11:8] :
                   (hi == 2'd2) ? v[7:4] : v[3:0];
  assign zero = ~|g;
  assign pos = zero ? 5'd16 : (sel == 4'b0001 && hi == 2'd3) ? 5'd14 : {1'b0, hi, enc4(sel)};
endmodule
