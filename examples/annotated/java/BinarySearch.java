// The recursive binary search of the PROPER paper (Fig. 14): the artifact
// ships its logs (op_logs/binarysearch*) and model, not its Java source.
// The tail calls are jumps back to the entry (the paper's construction).
public class BinarySearch {
    public int search(int[] sorted, int key, int left, int right) {
        if (right < left) {
            return -1;
        }
        int mid = (left + right) >>> 1;
        if (Integer.compare(key, sorted[mid]) == 0) {          // @time=0.0238
            return mid;
        } else {
            if (Integer.compare(key, sorted[mid]) < 0) {       // @time=0.0238
                return search(sorted, key, left, mid - 1);
            } else {
                return search(sorted, key, mid + 1, right);
            }
        }
    }
}
