package io.mover.plugins.nfs.rpc;

/** An ONC RPC program and version, named for messages ("NFS v3"). */
public record RpcProgram(int number, int version, String name) {
    public static final RpcProgram PORTMAP = new RpcProgram(100000, 2, "portmapper v2");
    public static final RpcProgram MOUNT = new RpcProgram(100005, 3, "MOUNT v3");
    public static final RpcProgram NFS = new RpcProgram(100003, 3, "NFS v3");

    @Override
    public String toString() {
        return name;
    }
}
