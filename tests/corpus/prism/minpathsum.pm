// PROPER's minPathSum case study (Stefanakos, Calinescu, Gerasimou, "Probabilistic
// program performance analysis with confidence intervals", IST 2023, Fig. 5): the
// parametric DTMC synthesised from the annotated minPathSum function. p1 is the
// probability of the early exit, p2..p5 the loop-continuation probabilities of its
// three loops (the last loop nested in the third). Rewards: execution time and cost.
dtmc

const double p1;
const double p2;
const double p3;
const double p4;
const double p5;

const int done = 21;

module minPathSum
  s : [0..done] init 0;

  [] s=0  -> 1 : (s'=1);
  [] s=1  -> p1 : (s'=2) + (1-p1) : (s'=3);   // early return?
  [] s=2  -> 1 : (s'=done);
  [] s=3  -> 1 : (s'=4);
  [] s=4  -> 1 : (s'=5);
  [] s=5  -> 1 : (s'=6);
  [] s=6  -> p2 : (s'=7) + (1-p2) : (s'=9);   // first loop
  [] s=7  -> 1 : (s'=8);
  [] s=8  -> 1 : (s'=6);
  [] s=9  -> 1 : (s'=10);
  [] s=10 -> p3 : (s'=11) + (1-p3) : (s'=13); // second loop
  [] s=11 -> 1 : (s'=12);
  [] s=12 -> 1 : (s'=10);
  [] s=13 -> 1 : (s'=14);
  [] s=14 -> p4 : (s'=15) + (1-p4) : (s'=20); // outer loop of the nest
  [] s=15 -> 1 : (s'=16);
  [] s=16 -> p5 : (s'=17) + (1-p5) : (s'=19); // inner loop
  [] s=17 -> 1 : (s'=18);
  [] s=18 -> 1 : (s'=16);
  [] s=19 -> 1 : (s'=14);
  [] s=20 -> 1 : (s'=done);
  [] s=done -> true;
endmodule

label "end" = s=done;

rewards "time"
  s=7  : 0.01;
  s=11 : 0.01;
  s=18 : 0.03;
endrewards

rewards "cost"
  s=18 : 0.25;
endrewards
