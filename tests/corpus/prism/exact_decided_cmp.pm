// --exact decides 1/3 = 0.333... exactly (false), and the constant n with it
dtmc
const int n = (1/3 = 0.333333333333333333333333 ? 1 : 2);
const double p = (1/3 < 0.333333333333333333333333 ? 1/2 : 1/4);
module M
 s : [0..2] init (0.1 + 0.2 = 0.3 ? 0 : 0);
 [] s=0 -> p:(s'=n) + 1-p:(s'=2);
 [] s>0 -> true;
endmodule
label "one" = s=1;
