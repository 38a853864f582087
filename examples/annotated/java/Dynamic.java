// Java original control structure of knapsackDP and minPathSum.
public class Dynamic {
    public int knapsackDP(int[] w, int[] v, int cap) {
        int n = w.length, i, c; int[] best = new int[cap + 1];  // @time=0.002, @cost=1
        for (c = 0; c <= cap; c++) best[c] = 0;                 // @time=0.002, @cost=1
        for (i = 0; i < n; i++) {                               // @time=0.003, @cost=1
            for (c = cap; c >= w[i]; c--) {                     // @time=0.003, @cost=1
                if (best[c - w[i]] + v[i] > best[c]) {          // @time=0.004, @cost=2
                    best[c] = best[c - w[i]] + v[i];            // @time=0.002, @cost=3
                }
            }
        }
        return best[cap];                                       // @time=0.001, @cost=1
    }

    public int minPathSum(int[][] grid) {
        int m = grid.length, n = m == 0 ? 0 : grid[0].length, i, j;
        if (m == 0 || n == 0) return 0;
        for (i = 1; i < m; i++) {
            grid[i][0] += grid[i - 1][0];                       // @time=0.01
        }
        for (j = 1; j < n; j++) {
            grid[0][j] += grid[0][j - 1];                       // @time=0.01
        }
        for (i = 1; i < m; i++) {
            for (j = 1; j < n; j++) {
                int up = grid[i - 1][j], left = grid[i][j - 1];
                grid[i][j] += Math.min(up, left);               // @time=0.03, @cost=0.25
            }
        }
        return grid[m - 1][n - 1];
    }
}
