// Derived from XuanTie C910 ct_vfmau_lza_simd_half.v (Apache-2.0)
// Copyright 2019-2021 T-Head Semiconductor Co., Ltd.; modifications for rtlopt's examples.
// Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file
// except in compliance with the License. You may obtain a copy of the License at
//     http://www.apache.org/licenses/LICENSE-2.0
// Unless required by applicable law or agreed to in writing, software distributed under the
// License is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND.
// Rewrite: the 24-way casez as a for loop.
module ct_vfmau_lza_simd_half(
  addend,
  lza_result,
  lza_result_zero,
  sub_vld,
  summand
);
input   [23:0]  addend;
input           sub_vld;
input   [23:0]  summand;
output  [4 :0]  lza_result;
output          lza_result_zero;

wire    [23:0]  carry_p = summand[23:0] ^ addend[23:0];
wire    [23:0]  carry_g = summand[23:0] & addend[23:0];
wire    [23:0]  carry_d = ~(summand[23:0] | addend[23:0]);
wire    [23:0]  lza_precod;

// Stage 1 (pre-encode) unchanged from the original.
assign lza_precod[0] =
     carry_p[1] && (carry_g[0] && sub_vld || carry_d[0])
 || !carry_p[1] && (carry_d[0] && sub_vld || carry_g[0]);
assign lza_precod[23] =
     sub_vld && (carry_g[23] && !carry_d[22] || carry_d[23] && !carry_g[22])
 || !sub_vld && (carry_d[23] && !carry_d[22] || !carry_d[23]);
assign lza_precod[22:1] =
    carry_p[23:2] & (carry_g[22:1] & ~carry_d[21:0] | carry_d[22:1] & ~carry_g[21:0])
 | ~carry_p[23:2] & (carry_g[22:1] & ~carry_g[21:0] | carry_d[22:1] & ~carry_d[21:0]);

assign lza_result_zero = ~|lza_precod[23:0];

// Stage 2 as a loop: the highest set bit wins (later iterations override earlier ones).
reg [4:0] lza_result;
integer i;
always @(*) begin
  lza_result = 5'd24;
  for (i = 0; i < 24; i = i + 1)
    if (lza_precod[i])
      lza_result = 5'd23 - i[4:0];
end
endmodule
