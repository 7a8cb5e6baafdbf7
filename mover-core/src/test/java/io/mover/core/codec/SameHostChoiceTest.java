package io.mover.core.codec;

import java.util.List;

import io.mover.spi.CodecFactory;
import io.mover.spi.LinkSink;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/**
 * {@code --codec auto} with the far end on this machine ({@link SharedCores}), fed the figures a 1 GiB copy of a tar of
 * the JDK to a receiver on loopback logged (docs/benchmarks.md, "auto on the same host"), and the same figures for a
 * far end elsewhere, where nothing changes.
 */
class SameHostChoiceTest {
    private static final CodecFactory LZ4 = new AutoChoiceTest.Fake("lz4", (byte) 1);
    private static final CodecFactory ZSTD = new AutoChoiceTest.Fake("zstd", (byte) 4);
    private static final long SECOND = 1_000_000_000L;
    private static final int MIB = 1 << 20;

    private static AutoChoice choice(boolean sameHost) {
        return new AutoChoice(List.of(new AutoChoice.Candidate("none", null, 0), new AutoChoice.Candidate("lz4", LZ4, 0),
                new AutoChoice.Candidate("zstd:1", ZSTD, 1), new AutoChoice.Candidate("zstd:3", ZSTD, 3)), () -> LinkSink.Load.NONE, 2,
                sameHost ? Placement.SAME_HOST : Placement.ELSEWHERE);
    }

    /** One taste of a 1 MiB block: {@code mbPerSecond} of compression a core, at {@code ratio}. */
    private static void taste(AutoChoice choice, int index, double ratio, double mbPerSecond) {
        choice.measured(index, MIB, (int) (MIB * ratio), (long) (MIB / (mbPerSecond * 1e6) * SECOND));
    }

    /** The first 8 blocks tasted (choices taken at once), lz4, zstd:1 and zstd:3 at their ratios and MB/s a core. */
    private static AutoChoice tasted(boolean sameHost, double lz4Ratio, double lz4Speed, double zstd1Ratio, double zstd1Speed, double zstd3Ratio,
            double zstd3Speed) {
        AutoChoice choice = choice(sameHost);
        for (int block = 0; block < AutoChoice.TASTE_FIRST; block++) {
            choice.shouldTaste();
            taste(choice, 1, lz4Ratio, lz4Speed);
            taste(choice, 2, zstd1Ratio, zstd1Speed);
            taste(choice, 3, zstd3Ratio, zstd3Speed);
            choice.reconsider();
        }
        choice.shouldTaste();
        return choice;
    }

    /** The JDK tar as the loopback copy tasted it: lz4 0.60 at 490 MB/s a core, zstd:1 0.45 at 330, zstd:3 0.42 at 200. */
    private static AutoChoice mixedTasted(boolean sameHost) {
        return tasted(sameHost, 0.60, 490, 0.45, 330, 0.42, 200);
    }

    /**
     * {@code seconds} of none to a receiver on loopback, as the log showed them: 490 MB/s, writers waiting 5.5 s a
     * second (summed over writers), the receiver busy 1.6 s a second (over its connections), none of the waiting on the
     * link. Read as a far end that sets the pace, it made every codec whose receiver rate was unknown look faster.
     */
    private static void noneOnLoopback(AutoChoice choice, int seconds) {
        for (int second = 1; second <= seconds; second++) {
            long bytes = second * 490_000_000L;
            choice.observeLink(new LinkSink.Load(bytes, (long) (second * 5.5 * SECOND), bytes, (long) (second * 1.6 * SECOND), 0), SECOND);
        }
    }

    @Test
    void mixedDataToAReceiverOnThisMachineGoesRaw() {
        AutoChoice choice = mixedTasted(true);
        noneOnLoopback(choice, 10);

        assertThat(choice.currentLabel()).as(choice.describe()).isEqualTo("none");
        assertThat(choice.switches()).isZero();
        // the summary names the rule, the chosen codec's cost and what it was weighed against
        assertThat(choice.describe()).contains("last choice same host: none: 1.00 of the bytes, 3.6 ns of CPU a byte")
                .contains("(lz4: 0.60");
    }

    /** The same figures with the far end elsewhere: the link assumed at 1 Gbit pays for compression, and a busy receiver with none for a try of lz4. */
    @Test
    void theSameFiguresForAFarEndElsewhereStillCompress() {
        AutoChoice first = mixedTasted(false);
        assertThat(first.currentLabel()).as(first.describe()).isNotEqualTo("none");
        assertThat(first.describe()).doesNotContain("same host");

        AutoChoice choice = mixedTasted(false);
        noneOnLoopback(choice, 10);
        assertThat(choice.currentLabel()).as(choice.describe()).isNotEqualTo("none");
    }

    /** A codec chosen earlier (the data compressed well, then turned to the JDK's mix) gives way to none on the same host. */
    @Test
    void aCodecChosenEarlierGivesWayToNone() {
        AutoChoice choice = tasted(true, 0.004, 5000, 0.0003, 2500, 0.0003, 1500);
        assertThat(choice.currentLabel()).isEqualTo("lz4");
        for (int round = 0; round < 30; round++) {
            taste(choice, 1, 0.60, 490);
            taste(choice, 2, 0.45, 330);
            taste(choice, 3, 0.42, 200);
            choice.reconsider();
        }

        assertThat(choice.currentLabel()).as(choice.describe()).isEqualTo("none");
    }

    /**
     * Zeros still compress on the same host: lz4 encodes them at GB/s, and its few bytes cost less to make and undo than
     * the raw GiB costs to carry through the kernel (measured: 1 GiB of zeros over loopback, CPU at both ends, lz4 below none).
     */
    @Test
    void zerosStillCompressOnTheSameHost() {
        AutoChoice choice = tasted(true, 0.004, 5000, 0.0003, 2500, 0.0003, 1500);

        assertThat(choice.currentLabel()).as(choice.describe()).isEqualTo("lz4");
        assertThat(choice.describe()).contains("same host: lz4");
    }

    /** Random data: nothing shrinks, none wins on either model. */
    @Test
    void incompressibleDataGoesRawOnTheSameHost() {
        AutoChoice choice = tasted(true, 1.0, 3000, 1.0, 1000, 1.0, 500);

        assertThat(choice.currentLabel()).isEqualTo("none");
    }

    @Test
    void theModelCountsBothEndsCpuAndTheCopy() {
        // none: checksums at 10 GB/s, a third of that again at the far end, 1 ns to carry a byte, 2.5 ns the rest
        assertThat(SharedCores.cpuPerByte(AutoChoice.NONE_SPEED, 1) * 1e9).isCloseTo(0.1333 + 1 + 2.5, offset(0.001));
        // on two cores, the cores divided by that
        assertThat(new SharedCores(2).rate(AutoChoice.NONE_SPEED, 1) / 1e6).isCloseTo(550.5, offset(0.5));
    }
}
