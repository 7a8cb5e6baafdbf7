package io.mover.plugins.tcp.tar;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.mover.spi.MoverException;

import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import static java.util.Objects.requireNonNull;

/**
 * One tar stream on one connection: a pump thread takes the entries' blocks in order from
 * {@link TarEntries} and writes them into the archive (Commons Compress), over the frames that compress
 * and send it ({@link FrameOutputStream}). {@link #finish} ends the archive and waits until the connection
 * took everything, so a job does not succeed before its bytes left; a broken stream resets the connection,
 * so the far side's tar reports a truncated archive instead of ending as if it were whole. Thread-safe.
 */
final class TarStream {
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final Socket socket;
    private final FrameOutputStream frames;
    private final TarArchiveOutputStream archive;
    private final TarEntries entries;
    private final Thread pump;

    TarStream(Socket socket, String where, FrameOutputStream frames, Duration timeout, long bufferBytes) {
        this.socket = requireNonNull(socket, "socket is null");
        this.frames = requireNonNull(frames, "frames is null");
        this.entries = new TarEntries(where, bufferBytes, timeout.toNanos(), reason -> {
            frames.abort(reason);
            TarInterop.resetQuietly(socket);
        });
        // records go straight to the frames (no 10 KiB block held back); the end pads to a record
        this.archive = new TarArchiveOutputStream(frames, 512, "UTF-8");
        archive.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        archive.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
        archive.setAddPaxHeadersForNonAsciiNames(true);
        this.pump = Thread.ofPlatform().daemon().name("mover-tar-pump").start(this::pump);
    }

    TarEntries entries() {
        return entries;
    }

    /** The pump: entries in order, each one's bytes in order, until {@link #finish} or a failure. */
    private void pump() {
        try {
            TarEntries.Take take;
            while ((take = entries.take()) != null) {
                if (take.header()) {
                    archive.putArchiveEntry(take.entry().header);
                }
                if (take.block() == null) {
                    archive.closeArchiveEntry();
                    entries.finished(take.entry());
                }
                else {
                    archive.write(take.block());
                    entries.moved(take.block().length);
                }
            }
        }
        catch (IOException | RuntimeException e) {
            entries.fail("the archive could not be written", e);
        }
    }

    /**
     * After the last file: lets the pump write what is left, then tar's end-of-archive records, sends
     * everything and half-closes the connection. Bounded: the pump and the connection each fail after the
     * timeout without progress.
     *
     * @throws MoverException PLUGIN_FAILED (the stream broke: the archive did not arrive whole)
     */
    void finish() {
        entries.finishing();
        try {
            while (pump.isAlive()) {
                frames.checkStall();
                pump.join(Duration.ofNanos(POLL_NANOS));
            }
            entries.throwIfBroken();
            archive.finish();
            frames.close();
            socket.shutdownOutput();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw entries.fail("interrupted while the end of the archive was sent", null);
        }
        catch (IOException e) {
            throw entries.fail("the end of the archive could not be sent", e);
        }
    }

    /** Breaks the stream for good (see {@link TarEntries#fail}). */
    MoverException fail(String reason) {
        return entries.fail(reason, null);
    }

    boolean isBroken() {
        return entries.isBroken();
    }

    FrameOutputStream frames() {
        return frames;
    }

    void closeSocket() {
        try {
            socket.close();
        }
        catch (IOException e) {
            // nothing more to send or to learn
        }
    }
}
