dtmc

module M
  x : [0..2] init 0;
  [] x<2 -> 0.5:(x'=x+1) + 0.5 (x'=x);
  [] x=2 -> true;
endmodule
