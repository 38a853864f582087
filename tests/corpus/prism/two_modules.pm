// Two unsynchronised modules: in every state each enabled command is chosen
// with probability 1/(number of enabled commands), as PRISM composes DTMCs.
dtmc

module first
  x : [0..1] init 0;
  [] x=0 -> 0.3 : (x'=1) + 0.7 : (x'=0);
  [] x=1 & y=1 -> true;
endmodule

module second
  y : [0..1] init 0;
  [] y=0 -> 0.6 : (y'=1) + 0.4 : (y'=0);
endmodule

rewards "steps"
  true : 1;
endrewards
