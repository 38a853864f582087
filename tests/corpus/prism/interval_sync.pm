// synchronised intervals multiply end by end; `true` self-loops of two
// modules in one state lead to one successor
dtmc
const double e = 0.1;
module M
 s : [0..2];
 [a] s=0 -> [0.1,0.2]:(s'=1) + [0.8,0.9]:(s'=2);
 [] s>0 -> true;
endmodule
module N
 t : [0..2];
 [a] t=0 -> [0.5-e,0.5+e]:(t'=1) + [0.5-e,0.5+e]:(t'=2);
 [] t>0 -> true;
endmodule
label "both" = s=1 & t=1;
rewards "steps" true : 1; [a] true : 2; endrewards
