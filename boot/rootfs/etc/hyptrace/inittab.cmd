# Scripted guest (qemu-run.sh --cmd): run /etc/hyptrace/cmd once, then power off.
::sysinit:/etc/init.d/rcS
::once:/bin/cttyhack /sbin/hyptrace-run-cmd
::ctrlaltdel:/sbin/reboot
::shutdown:/bin/sync
