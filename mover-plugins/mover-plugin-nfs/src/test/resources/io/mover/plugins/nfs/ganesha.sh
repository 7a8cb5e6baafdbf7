#!/usr/bin/env bash
# Starts or stops a private nfs-ganesha (VFS backend, NFSv3 over TCP only) on 127.0.0.1 for the
# nfs plugin's tests and bench/nfs.sh. Needs root (the VFS backend opens files by handle) and the
# Debian packages nfs-ganesha, nfs-ganesha-vfs and rpcbind.
#
#   ganesha.sh start STATE_DIR EXPORT_DIR [NFS_PORT] [MOUNT_PORT]   prints the server's pid when it answers
#   ganesha.sh stop STATE_DIR
#
# STATE_DIR receives the configuration, pid file and log. The export is "/export" (its pseudo path),
# read-write, no root squash, AUTH_SYS. rpcbind is started with -w if none runs (`rpcbind -h 127.0.0.1`
# crashes here). The start waits at most START_WAIT_SECONDS (default 30) for the NFS port to answer.
set -euo pipefail

command="${1:?usage: ganesha.sh start|stop STATE_DIR [EXPORT_DIR] [NFS_PORT] [MOUNT_PORT]}"
state="${2:?state directory missing}"

port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

case "$command" in
  start)
    export_dir="${3:?export directory missing}"
    nfs_port="${4:-2049}"
    mount_port="${5:-20048}"
    mkdir -p "$state/recovery" "$export_dir"
    state="$(cd "$state" && pwd)"
    export_dir="$(cd "$export_dir" && pwd)"
    if ! pgrep -x rpcbind >/dev/null; then
      rpcbind -w
    fi
    cat >"$state/ganesha.conf" <<CONF
NFS_CORE_PARAM {
  Bind_addr = 127.0.0.1;
  NFS_Port = $nfs_port;
  MNT_Port = $mount_port;
  Protocols = 3;
  Enable_NLM = false;
  Enable_RQUOTA = false;
  Enable_UDP = false;
  mount_path_pseudo = true;
}
NFSV4 { Graceless = true; RecoveryBackend = fs; RecoveryRoot = "$state/recovery"; }
NFS_KRB5 { Active_krb5 = false; }
EXPORT_DEFAULTS { Access_Type = RW; Squash = No_Root_Squash; SecType = sys; }
EXPORT {
  Export_Id = 1;
  Path = "$export_dir";
  Pseudo = /export;
  Protocols = 3;
  Transports = TCP;
  FSAL { Name = VFS; }
}
LOG { Default_Log_Level = EVENT; }
CONF
    ganesha.nfsd -f "$state/ganesha.conf" -L "$state/ganesha.log" -p "$state/ganesha.pid" -N NIV_EVENT
    wait="${START_WAIT_SECONDS:-30}"
    for ((i = 0; i < wait * 10; i++)); do
      if port_open "$nfs_port" && [ -s "$state/ganesha.pid" ]; then
        cat "$state/ganesha.pid"
        exit 0
      fi
      sleep 0.1
    done
    echo "ganesha did not answer on 127.0.0.1:$nfs_port within ${wait}s; its log: $state/ganesha.log" >&2
    tail -20 "$state/ganesha.log" >&2 || true
    exit 1
    ;;
  stop)
    if [ -s "$state/ganesha.pid" ]; then
      pid="$(cat "$state/ganesha.pid")"
      kill "$pid" 2>/dev/null || true
      for ((i = 0; i < 100; i++)); do
        kill -0 "$pid" 2>/dev/null || exit 0
        sleep 0.1
      done
      kill -9 "$pid" 2>/dev/null || true
    fi
    ;;
  *)
    echo "unknown command $command: use start or stop" >&2
    exit 2
    ;;
esac
