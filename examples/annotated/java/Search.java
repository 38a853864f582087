// Java original control structure of fst and binarySearch.
public class Search {
    public static <T extends Comparable<T>> int fst(java.util.List<T> a, T x) {
        int i;                                                  // @time=0.001
        for (i = 0; i < a.size(); i++) {                        // @time=0.002
            if (a.get(i).compareTo(x) == 0) {                   // @time=0.003
                return i;                                       // @time=0.001
            }
        }
        return -1;                                              // @time=0.001
    }

    public static int binarySearch(int[] a, int x) {
        int lo = 0, hi = a.length - 1;                          // @time=0.002
        while (lo <= hi) {                                      // @time=0.002
            int mid = (lo + hi) >>> 1;                          // @time=0.003
            if (a[mid] < x) {                                   // @time=0.002
                lo = mid + 1;                                   // @time=0.001
            } else if (a[mid] > x) {                            // @time=0.002
                hi = mid - 1;                                   // @time=0.001
            } else {
                return mid;                                     // @time=0.001
            }
        }
        return -(lo + 1);                                       // @time=0.001
    }
}
