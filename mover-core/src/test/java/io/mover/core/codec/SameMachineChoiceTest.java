package io.mover.core.codec;

import java.util.List;

import io.mover.spi.CodecFactory;
import io.mover.spi.LinkSink;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --codec auto} with the far end on this machine across a link of its own ({@link Placement#SAME_MACHINE}:
 * another network namespace, as bench/peer.sh's shaped links), fed the figures of a tar of the JDK: the shared cores
 * rate the codecs, the link caps them only where it is clearly the slower, and one raw probe finds out which it is.
 */
class SameMachineChoiceTest {
    private static final CodecFactory LZ4 = new AutoChoiceTest.Fake("lz4", (byte) 1);
    private static final CodecFactory ZSTD = new AutoChoiceTest.Fake("zstd", (byte) 4);
    private static final long SECOND = 1_000_000_000L;
    private static final long HALF = SECOND / 2;
    private static final int MIB = 1 << 20;

    /** Cumulative counters of the link, fed to the choice a sample at a time. */
    private long sent;
    private long raw;
    private long waiting;
    private long onLink;

    private static AutoChoice tasted(Placement placement) {
        AutoChoice choice = new AutoChoice(List.of(new AutoChoice.Candidate("none", null, 0), new AutoChoice.Candidate("lz4", LZ4, 0),
                new AutoChoice.Candidate("zstd:1", ZSTD, 1), new AutoChoice.Candidate("zstd:3", ZSTD, 3)), () -> LinkSink.Load.NONE, 2, placement);
        for (int block = 0; block < AutoChoice.TASTE_FIRST; block++) {
            choice.shouldTaste();
            taste(choice, 1, 0.60, 490);
            taste(choice, 2, 0.45, 330);
            taste(choice, 3, 0.42, 200);
            choice.reconsider();
        }
        choice.shouldTaste();
        return choice;
    }

    private static void taste(AutoChoice choice, int index, double ratio, double mbPerSecond) {
        choice.measured(index, MIB, (int) (MIB * ratio), (long) (MIB / (mbPerSecond * 1e6) * SECOND));
    }

    /** Half a second at {@code rawMb} MB/s of raw bytes sent as {@code sentMb}; writers waiting {@code waitShare} of it, all on the link. */
    private void sample(AutoChoice choice, double rawMb, double sentMb, double waitShare) {
        raw += (long) (rawMb * 1e6 / 2);
        sent += (long) (sentMb * 1e6 / 2);
        // four writers
        waiting += (long) (waitShare * 4 * HALF);
        onLink += (long) (waitShare * 4 * HALF);
        choice.observeLink(new LinkSink.Load(sent, waiting, raw, 0, onLink), HALF);
    }

    @Test
    void beforeTheLinkIsMeasuredItIsAssumedSlowAndCompressionPays() {
        AutoChoice choice = tasted(Placement.SAME_MACHINE);

        assertThat(choice.currentLabel()).as(choice.describe()).isNotEqualTo("none");
        assertThat(choice.describe()).contains("same machine, link assumed 125.0 MB/s");
    }

    /** 10 Gbit between namespaces: zstd:1 sets its own pace, the link's bound stays low, the probe shows raw going far faster. */
    @Test
    void aFastLinkFoundByTheProbeGoesRaw() {
        AutoChoice choice = tasted(Placement.SAME_MACHINE);
        String compressing = choice.currentLabel();
        sample(choice, 250, 250 * 0.45, 0);

        assertThat(choice.currentLabel()).as(choice.describe()).isEqualTo("none");
        assertThat(choice.describe()).contains("probing the link with raw blocks");

        sample(choice, 560, 560, 0);
        assertThat(choice.currentLabel()).as(choice.describe()).isEqualTo("none");
        assertThat(choice.describe()).contains("the cores set the pace: none");
        // raw stays once the link is known to be faster than the cores' share, whatever it measures next
        for (int i = 0; i < 10; i++) {
            sample(choice, 420, 420, 0.8);
        }
        assertThat(choice.currentLabel()).as(choice.describe()).isEqualTo("none");
        assertThat(compressing).isNotEqualTo("none");
    }

    /** 1 Gbit between namespaces: the probe fills the link, and the interrupted codec comes back at once, for good. */
    @Test
    void aSlowLinkFoundByTheProbeBringsTheCodecBack() {
        AutoChoice choice = tasted(Placement.SAME_MACHINE);
        String compressing = choice.currentLabel();
        sample(choice, 200, 200 * 0.45, 0);
        assertThat(choice.currentLabel()).isEqualTo("none");

        sample(choice, 119, 119, 0.9);

        assertThat(choice.currentLabel()).as(choice.describe()).isEqualTo(compressing);
        assertThat(choice.describe()).contains("same machine, link 119.0 MB/s");
        // one probe a job: later samples paced by the CPU do not start another
        for (int i = 0; i < 5; i++) {
            sample(choice, 200, 200 * 0.45, 0);
        }
        assertThat(choice.currentLabel()).as(choice.describe()).isNotEqualTo("none");
    }

    /** The link kept up with more than half of what the cores carry raw: the cores set the pace, none at once, no probe. */
    @Test
    void aLinkThatKeepsUpBeyondTheCoresShareGoesRawAtOnce() {
        AutoChoice choice = tasted(Placement.SAME_MACHINE);
        assertThat(choice.currentLabel()).isEqualTo("zstd:1");

        // zstd:1 let out 225 MB/s and the link kept up: at least 281 MB/s, above half of the 550 none gives on two cores
        sample(choice, 500, 500 * 0.45, 0);

        assertThat(choice.currentLabel()).as(choice.describe()).isEqualTo("none");
        assertThat(choice.describe()).doesNotContain("probing").contains("the cores set the pace: none");
    }

    /** A link seen full before any probe is measured: nothing to probe. */
    @Test
    void aLinkAlreadyMeasuredIsNotProbed() {
        AutoChoice choice = tasted(Placement.SAME_MACHINE);
        sample(choice, 250, 112, 0.9);

        assertThat(choice.currentLabel()).as(choice.describe()).isNotEqualTo("none");
        assertThat(choice.describe()).doesNotContain("probing");
    }

    /** The same samples with the far end elsewhere or on loopback: no probe (it measured worse there). */
    @Test
    void noProbeForAFarEndElsewhereOrOnLoopback() {
        for (Placement placement : List.of(Placement.ELSEWHERE, Placement.SAME_HOST)) {
            AutoChoice choice = tasted(placement);
            sample(choice, 250, 250 * 0.45, 0);
            assertThat(choice.describe()).as(placement.name()).doesNotContain("probing");
        }
    }
}
