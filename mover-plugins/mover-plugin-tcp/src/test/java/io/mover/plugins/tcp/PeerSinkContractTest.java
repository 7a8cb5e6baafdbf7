package io.mover.plugins.tcp;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.testkit.ContractContext;
import io.mover.testkit.SinkContractTest;
import io.mover.testkit.LocalStores;

/**
 * The tcp:// sink against the plugin test kit: every listing, write, commit and abort of the contract
 * crosses the protocol to a receiver on loopback writing into a real local sink.
 */
@org.junit.jupiter.api.extension.ExtendWith(LeakWatch.class)
final class PeerSinkContractTest extends SinkContractTest {
    @Override
    public Sink createSink(ContractContext context) {
        Path scratch = context.pluginContext().scratchDirectory();
        LoopbackPeer peer = new LoopbackPeer(context.directory(), scratch);
        Sink sender = peer.sender("", Map.of("streams", "2"), scratch, context.pluginContext().jobKey());
        return new ClosingBoth(sender, peer);
    }

    @Override
    public Optional<byte[]> readBack(RelativePath path) {
        return LocalStores.read(context().directory(), path);
    }

    @Override
    public Set<String> storedNames() {
        return LocalStores.names(context().directory());
    }

    @Override
    public boolean isTemporaryName(String storedName) {
        return RelativePath.of(storedName).name().startsWith(".mover.");
    }

    @Override
    public java.util.List<String> reservedNames() {
        return java.util.List.of(".mover.some-job.0123456789ab.name");
    }

    /** The sender, closing its loopback receiver after itself; its free space (a SPACE request) passes through. */
    private record ClosingBoth(Sink sender, LoopbackPeer peer) implements Sink, io.mover.spi.FreeSpace {
        @Override public java.util.OptionalLong usableSpace(RelativePath directory) { return ((io.mover.spi.FreeSpace) sender).usableSpace(directory); }
        @Override public io.mover.spi.EndpointInfo info() { return sender.info(); }
        @Override public Optional<io.mover.spi.Entry> stat(RelativePath path) { return sender.stat(path); }
        @Override public Stream<io.mover.spi.Entry> list(RelativePath directory) { return sender.list(directory); }
        @Override public boolean mkdirs(RelativePath directory) { return sender.mkdirs(directory); }
        @Override public io.mover.spi.SinkWriter create(RelativePath path, long size, io.mover.spi.Entry entry) { return sender.create(path, size, entry); }
        @Override public void delete(RelativePath path, boolean recursive) { sender.delete(path, recursive); }
        @Override public void setAttributes(RelativePath path, io.mover.spi.Entry entry) { sender.setAttributes(path, entry); }
        @Override public int removeStaleTemporaries(RelativePath directory) { return sender.removeStaleTemporaries(directory); }

        @Override
        public void close() {
            sender.close();
            peer.close();
            // the sender's copies of blocks in flight bypass Netty's leak detector (they are reused): counted instead
            if (sender instanceof PeerSink peerSink) {
                org.assertj.core.api.Assertions.assertThat(peerSink.buffers().outstanding()).as("sender block buffers never released").isZero();
            }
        }
    }
}
