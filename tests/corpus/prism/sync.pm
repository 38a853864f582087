// Synchronisation on action go: module right has two enabled go-commands in its
// first state, so go gives two combined choices; with left's unlabelled command
// that makes three choices of probability 1/3 each.
dtmc

module left
  a : [0..3] init 0;
  [go] a=0 -> 0.5 : (a'=1) + 0.5 : (a'=2);
  [] a=0 -> (a'=3);
  [] a>0 -> true;
endmodule

module right
  b : [0..2] init 0;
  [go] b=0 -> 0.4 : (b'=1) + 0.6 : (b'=2);
  [go] b=0 -> (b'=2);
endmodule

rewards "r"
  [go] true : 1;
  [] true : 10;
endrewards
