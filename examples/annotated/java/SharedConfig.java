// Java original control structure of devPerf: Telegram's
// SharedConfig.getDevicePerformanceClass (reads CPU frequencies, classifies).
import java.io.RandomAccessFile;
import java.util.Locale;

public class SharedConfig {
    public static int devPerf(int androidVersion, int cpuCount, int memoryClass) {
        int totalCpuFreq = 0, freqResolved = 0, i, maxCpuFreq;      // @time=0.01, @energy=1
        for (i = 0; i < cpuCount; i++) {                           // @time=0.01, @energy=1
            try {
                RandomAccessFile reader = new RandomAccessFile(String.format(Locale.ENGLISH,
                        "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", i), "r");
                String line = reader.readLine();
                if (line != null) {                                 // @time=2.5, @energy=40
                    totalCpuFreq += Integer.parseInt(line) / 1000; // @time=0.01, @energy=1
                    freqResolved++;                                 // @time=0.01, @energy=1
                }
                reader.close();
            } catch (Throwable ignore) {
            }
        }
        maxCpuFreq = freqResolved == 0 ? -1 : (int) Math.ceil(totalCpuFreq / (float) freqResolved); // @time=0.02, @energy=1
        if (androidVersion < 21 || cpuCount <= 2 || memoryClass <= 100 || // @time=0.05, @energy=2
                cpuCount <= 4 && maxCpuFreq != -1 && maxCpuFreq <= 1250 ||
                cpuCount <= 4 && maxCpuFreq <= 1600 && memoryClass <= 128 && androidVersion <= 21 ||
                cpuCount <= 4 && maxCpuFreq <= 1300 && memoryClass <= 128 && androidVersion <= 24 && maxCpuFreq != -1) {
            return 0;                                               // @time=0.01, @energy=1
        } else if (cpuCount < 8 || memoryClass <= 160 ||            // @time=0.04, @energy=2
                maxCpuFreq != -1 && maxCpuFreq <= 2050 || maxCpuFreq == -1 && cpuCount == 8 && androidVersion <= 23) {
            return 1;                                               // @time=0.01, @energy=1
        } else {
            return 2;                                               // @time=0.01, @energy=1
        }
    }
}
