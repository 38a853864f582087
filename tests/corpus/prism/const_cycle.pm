dtmc
const int a = b; const int b = a;
module M x : [0..a]; endmodule
