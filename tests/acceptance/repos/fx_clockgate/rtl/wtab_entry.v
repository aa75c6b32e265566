// a write-table entry with two clock inputs: a control clock (already gated outside) and a
// free-running clock gated here for the data registers
module wtab_entry (
    input        ctrl_clk,
    input        free_clk,
    input        rst_b,
    input        icg_en,
    input        scan_en,
    input        create_en,
    input        create_dp_en,
    input        pop_en,
    input  [39:0] awaddr,
    input  [39:0] araddr,
    input  [2:0]  mid_in,
    output       vld_x,
    output       rd_hit_x,
    output       wr_hit_x,
    output [3:0] sel_x
);
    reg       vld;
    reg [7:0] addr;
    reg [2:0] mid;
    wire      data_clk;

    always @(posedge ctrl_clk or negedge rst_b)
        if (!rst_b) vld <= 1'b0;
        else if (create_en) vld <= 1'b1;
        else if (pop_en) vld <= 1'b0;

    always @(posedge data_clk or negedge rst_b)
        if (!rst_b) addr <= 8'b0;
        else if (create_dp_en) addr <= awaddr[13:6];

    always @(posedge data_clk or negedge rst_b)
        if (!rst_b) mid <= 3'b0;
        else if (create_dp_en) mid <= mid_in;

    gated_clk_cell x_gate (
        .clk_in(free_clk), .clk_out(data_clk), .external_en(1'b0), .global_en(1'b1),
        .local_en(create_dp_en), .module_en(icg_en), .pad_yy_icg_scan_en(scan_en)
    );

    wire [3:0] mid_sel = (4'b1 << mid[1:0]) | {4{mid[2]}};
    assign sel_x    = mid_sel;
    assign vld_x    = vld;
    assign rd_hit_x = vld && (araddr[13:6] == addr);
    assign wr_hit_x = vld && (awaddr[13:6] == addr);
endmodule
