// A walk on 0..4 that stops at 4, for filters.props: PRISM's property
// forms that the Storm adapter translates (tests/transcripts/record_storm.sh).
dtmc

const double p = 0.6;

module walk
  x : [0..4] init 0;
  [] x=0 -> 0.5:(x'=1) + 0.5:(x'=0);
  [] x>0 & x<4 -> p:(x'=x+1) + (1-p):(x'=x-1);
  [] x=4 -> true;
endmodule

rewards "steps"
  true : 1;
endrewards
