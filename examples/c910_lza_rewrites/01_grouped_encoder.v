// Derived from XuanTie C910 ct_vfmau_lza_simd_half.v (Apache-2.0)
// Copyright 2019-2021 T-Head Semiconductor Co., Ltd.; modifications for rtlopt's examples.
// Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file
// except in compliance with the License. You may obtain a copy of the License at
//     http://www.apache.org/licenses/LICENSE-2.0
// Unless required by applicable law or agreed to in writing, software distributed under the
// License is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND.
// Rewrite: 4-bit grouped priority encoder (TTT-RTL paper, appendix E.2).
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

// Stage 2: six 4-bit groups; the highest non-empty group picks the position
// (the paper's appendix E.2 grouped priority encoder, self-contained).
wire [3:0] grp_23_20 = lza_precod[23:20];
wire       vld_23_20 = |grp_23_20;
wire [3:0] grp_19_16 = lza_precod[19:16];
wire       vld_19_16 = |grp_19_16;
wire [3:0] grp_15_12 = lza_precod[15:12];
wire       vld_15_12 = |grp_15_12;
wire [3:0] grp_11_8 = lza_precod[11:8];
wire       vld_11_8 = |grp_11_8;
wire [3:0] grp_7_4 = lza_precod[7:4];
wire       vld_7_4 = |grp_7_4;
wire [3:0] grp_3_0 = lza_precod[3:0];
wire       vld_3_0 = |grp_3_0;
assign lza_result =
  vld_23_20 ? (grp_23_20[3] ? 5'd0 : grp_23_20[2] ? 5'd1 :
                grp_23_20[1] ? 5'd2 : 5'd3) :
  vld_19_16 ? (grp_19_16[3] ? 5'd4 : grp_19_16[2] ? 5'd5 :
                grp_19_16[1] ? 5'd6 : 5'd7) :
  vld_15_12 ? (grp_15_12[3] ? 5'd8 : grp_15_12[2] ? 5'd9 :
                grp_15_12[1] ? 5'd10 : 5'd11) :
  vld_11_8 ? (grp_11_8[3] ? 5'd12 : grp_11_8[2] ? 5'd13 :
                grp_11_8[1] ? 5'd14 : 5'd15) :
  vld_7_4 ? (grp_7_4[3] ? 5'd16 : grp_7_4[2] ? 5'd17 :
                grp_7_4[1] ? 5'd18 : 5'd19) :
  vld_3_0 ? (grp_3_0[3] ? 5'd20 : grp_3_0[2] ? 5'd21 :
                grp_3_0[1] ? 5'd22 : 5'd23) :
  5'd24;
endmodule
