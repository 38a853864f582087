// Java original control structure of distance1 (Levenshtein distance).
public class Distance {
    public static int distance1(String s, String t) {
        int n = s.length(), m = t.length(); int[] row = new int[m + 1]; int i, j; // @time=0.002
        for (j = 0; j <= m; j++) row[j] = j;                 // @time=0.003
        for (i = 1; i <= n; i++) {                           // @time=0.003
            int diag = row[0];                               // @time=0.002
            row[0] = i;                                      // @time=0.001
            for (j = 1; j <= m; j++) {                       // @time=0.003
                int up = row[j], best = diag + 1;            // @time=0.004
                if (s.charAt(i - 1) == t.charAt(j - 1)) best = diag; // @time=0.002
                if (up + 1 < best) best = up + 1;            // @time=0.002
                if (row[j - 1] + 1 < best) best = row[j - 1] + 1; // @time=0.002
                diag = up;                                   // @time=0.001
                row[j] = best;                               // @time=0.001
            }
        }
        return row[m];                                       // @time=0.001
    }
}
