package io.mover.plugins.tcp;

import java.util.List;

import io.mover.spi.MoverPlugin;
import io.mover.spi.SinkFactory;

/** The TCP peer: {@code tcp://} destinations and the receiver behind {@code mover receive}. */
public final class TcpPlugin implements MoverPlugin {
    @Override
    public String name() {
        return "tcp";
    }

    @Override
    public String version() {
        return "0.1.0";
    }

    @Override
    public List<SinkFactory> sinkFactories() {
        return List.of(new TcpSinkFactory());
    }
}
