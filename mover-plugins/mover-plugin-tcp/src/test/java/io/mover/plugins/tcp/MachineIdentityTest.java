package io.mover.plugins.tcp;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.mover.spi.ErrorCode;
import io.mover.spi.LinkSink;
import io.mover.spi.MoverException;
import io.mover.spi.Sink;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MACHINE: whether a receiver runs on the sender's machine, told without its boot id crossing the wire. */
class MachineIdentityTest {
    private static final MachineIdentity HERE = new MachineIdentity(Optional.of("0b5f7c1e-boot-a".getBytes(StandardCharsets.US_ASCII)));
    private static final MachineIdentity THERE = new MachineIdentity(Optional.of("9d2e44a0-boot-b".getBytes(StandardCharsets.US_ASCII)));
    private static final MachineIdentity UNKNOWN = new MachineIdentity(Optional.empty());

    @Test
    void theSameMachineAnswersAsTheSenderExpects() {
        String nonce = MachineIdentity.nonce();

        assertThat(HERE.sameAs(nonce, HERE.answer(nonce))).isTrue();
        assertThat(HERE.sameAs(nonce, THERE.answer(nonce))).isFalse();
        // a fresh nonce each time: an answer recorded for one says nothing for another
        assertThat(HERE.sameAs(MachineIdentity.nonce(), HERE.answer(nonce))).isFalse();
    }

    @Test
    void anEndThatCannotTellIsNeverTheSameMachine() {
        String nonce = MachineIdentity.nonce();

        assertThat(UNKNOWN.answer(nonce)).isZero();
        assertThat(HERE.sameAs(nonce, 0)).isFalse();
        assertThat(UNKNOWN.sameAs(nonce, UNKNOWN.answer(nonce))).isFalse();
    }

    @Test
    void aNonceThatIsNotThirtyTwoHexDigitsIsRefused() {
        for (String bad : List.of("", "00", "zz" + "0".repeat(30), "0".repeat(33), "../../etc/passwd")) {
            assertThatThrownBy(() -> HERE.answer(bad)).as(bad).isInstanceOfSatisfying(MoverException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        }
    }

    /** Over a real connection to a receiver on loopback (this machine, so the same boot), asked whatever the address. */
    @Test
    void aReceiverOnThisMachineSaysSoOverTheWire(@TempDir Path root, @TempDir Path scratch) throws Exception {
        try (LoopbackPeer peer = new LoopbackPeer(root, scratch); Sink sender = peer.sender("inbox", Map.of(), scratch)) {
            PeerLink link = ((PeerSink) sender).link();
            assertThat((link.welcome().flags() & Message.Welcome.MACHINE) != 0).isEqualTo(MachineIdentity.local().known());
            assertThat(link.askMachine()).isEqualTo(MachineIdentity.local().known());
            assertThat(((LinkSink) sender).sameMachine()).isTrue();
        }
    }

    /** A malformed MACHINE from an authenticated sender gets a FAILURE; the connection and the receiver go on. */
    @Test
    void aMalformedRequestFailsAloneAndTheConnectionGoesOn(@TempDir Path root, @TempDir Path scratch) throws Exception {
        try (LoopbackPeer peer = new LoopbackPeer(root, scratch); Sink sender = peer.sender("inbox", Map.of(), scratch)) {
            PeerLink link = ((PeerSink) sender).link();
            assertThatThrownBy(() -> link.call(id -> new Message.PathRequest(id, Wire.MACHINE, "not-a-nonce", false)))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
            assertThat(link.askMachine()).isEqualTo(MachineIdentity.local().known());
        }
    }
}
