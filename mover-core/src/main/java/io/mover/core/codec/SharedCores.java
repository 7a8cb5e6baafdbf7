package io.mover.core.codec;

import java.util.Locale;

/**
 * {@code --codec auto}'s model when the far end runs on this machine ({@link io.mover.spi.LinkSink#sameHost()}: a
 * receiver on loopback; or {@link io.mover.spi.LinkSink#sameMachine()}, then beside the link's rate: {@link #capsAt}), for
 * {@link AutoChoice}. Both ends then share the same cores, and the "link" is the kernel
 * copying bytes from one socket to the other: a codec saves only that copy, and pays its encoding here and its decoding
 * there out of the same CPU. So every candidate is ranked by the CPU seconds a raw byte costs at both ends, and its
 * effective rate is the cores divided by that cost; the link's rate, the receiver's busy share and the sender's own
 * pace, which the other model reads from the link's samples, are all this same CPU seen from one end and are not used.
 * <p>Measured on this 2-core VM, 1 GiB of a tar of the JDK, mover to mover on loopback, CPU seconds at both ends
 * (docs/benchmarks.md, "auto on the same host"): none 4.5-5.9 s, lz4 6.8-7.2 s, zstd:1 8.6-10.2 s, and auto, which
 * took the link for 1 Gbit and the receiver's busy share with none for a slow far end, 7.3-8.8 s with lz4 and zstd:1.
 * The model's figures come from there: {@link #REST} is none's cost less its carrying, {@link #CARRY} what lz4's and
 * zstd:1's savings on the wire gave back beside their encoding and decoding. Zeros still compress: lz4 encodes them at
 * several GB/s, so its few bytes cost less than carrying the raw ones.
 */
final class SharedCores {
    /** Decoding as a share of encoding time: zstd:1 encodes 517 MB/s a core and decodes 1.5 GB/s (DESIGN §10); lz4 decodes faster still. */
    static final double DECODE_SHARE = 1 / 3.0;
    /** CPU seconds per encoded byte to carry it through loopback TCP: the kernel's copy in at one end and out at the other. */
    static final double CARRY = 1.0e-9;
    /** CPU seconds per raw byte alike for every codec: reading, checksums, frames, writing into the page cache. */
    static final double REST = 2.5e-9;

    /**
     * On the same machine across a link of its own ({@link Placement#SAME_MACHINE}): the share of the rate the cores give
     * with none under which a link's figure is taken for the network's own limit (a shaped link, 1 Gbit here). At or above
     * it the figure cannot be told from the cores themselves, since sending and receiving are the same CPU: a veth pair at
     * 10 Gbit carried raw bytes at 380-420 MB/s with both cores busy, against 550 modelled, and capping none there made lz4
     * and zstd:1 look faster; mover went 420 MB/s with none and 261 with auto's lz4 and zstd:1 (docs/benchmarks.md).
     */
    static final double LINK_CAP_SHARE = 0.5;

    private final int cores;

    SharedCores(int cores) {
        this.cores = Math.max(1, cores);
    }

    /** CPU seconds per raw byte at both ends for a codec that compresses {@code speed} raw bytes per second on one core to {@code ratio}. */
    static double cpuPerByte(double speed, double ratio) {
        return (1 + DECODE_SHARE) / speed + ratio * CARRY + REST;
    }

    /** Raw bytes per second both ends give together on this machine's cores. */
    double rate(double speed, double ratio) {
        return cores / cpuPerByte(speed, ratio);
    }

    /** Whether a link that carries {@code link} bytes a second limits the job, rather than these cores ({@link #LINK_CAP_SHARE}). */
    boolean capsAt(double link) {
        return link < LINK_CAP_SHARE * rate(AutoChoice.NONE_SPEED, 1);
    }

    /** One codec's cost for the summary's reason: its share of the bytes, the CPU a byte at both ends, the rate on these cores (said once). */
    String cost(String label, double speed, double ratio, boolean full) {
        return String.format(Locale.ROOT, full ? "%s: %.2f of the bytes, %.1f ns of CPU a byte at both ends -> %.0f MB/s on %d cores" : "%s: %.2f, %.1f ns -> %.0f MB/s",
                label, ratio, cpuPerByte(speed, ratio) * 1e9, rate(speed, ratio) / 1e6, cores);
    }
}
