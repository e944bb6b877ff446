"""Escape attempts, each the body of ``_attack(T)`` run in a student's answer cell.

An attempt returns something true when it worked. The cell around it
(``attack_cell``) then replaces the student's right answer with a wrong one,
so a working attack costs the notebook its points, and the suite sees it in
the score; a refused one prints ``refused: <why>``. ``T`` holds the targets
the test set up on the host (paths, a canary process, listening sockets, a
secret). Every attempt works when run without the sandbox, as the same user
(``tests/student/test_escape.py`` shows it for the ones that harm nothing).
"""

import textwrap

__all__ = ["ATTACKS", "KILLED", "OVER_MEMORY", "attack_cell", "attempt_cell"]

_PRELUDE = """
import ctypes, os, signal, socket, subprocess, mmap
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
X86 = os.uname().machine == "x86_64"
def nr(x86_64, aarch64):
    return x86_64 if X86 else aarch64
def canary_memory(call, perms):
    # 8 bytes at the start of the canary's first mapping with these permissions
    # (its maps, where they can be read; else an address that is ours).
    buffer = ctypes.create_string_buffer(8)
    try:
        lines = open(f"/proc/{T['canary']}/maps").read().splitlines()
        start = int(next(l for l in lines if l.split()[1].startswith(perms)).split('-')[0], 16)
    except OSError:
        start = ctypes.addressof(buffer)
    local = (ctypes.c_void_p * 2)(ctypes.addressof(buffer), 8)
    remote = (ctypes.c_void_p * 2)(start, 8)
    one, none = ctypes.c_ulong(1), ctypes.c_ulong(0)  # full registers for the kernel
    return libc.syscall(call, T['canary'], local, one, remote, one, none) == 8
"""

ATTACKS = {
    # the filesystem
    "remounts / read-write": "return libc.mount(None, b'/', None, 32 | 4096, None) == 0",
    "remounts the venv read-write":
        "return libc.mount(None, T['venv'].encode(), None, 32 | 4096, None) == 0",
    "unmounts the root": "return libc.umount2(b'/', 2) == 0",
    "unmounts the cover over the hidden checks":
        "return libc.umount2(T['hidden_dir'].encode(), 2) == 0",
    "mounts a filesystem": "return libc.mount(b'none', b'/tmp', b'tmpfs', 0, None) == 0",
    "chroots": "return libc.chroot(b'/tmp') == 0",
    "pivots its root": "return libc.syscall(nr(155, 41), b'/', b'/') == 0",
    "unshares a user namespace": "return libc.unshare(0x10000000) == 0",
    "unshares a mount namespace": "return libc.unshare(0x00020000) == 0",
    "enters the canary's namespaces": """
for kind in ('mnt', 'user', 'net', 'pid'):
    fd = os.open(f"/proc/{T['canary']}/ns/{kind}", os.O_RDONLY)
    if libc.setns(fd, 0) == 0:
        return True
""",
    "reads the hidden checks": "return open(T['hidden_file']).read()",
    "reads the solutions": "return open(T['solution']).read()",
    "lists the instructor folder": "return os.listdir(T['instructor'])",
    "reads the gradebook": "return open(T['gradebook']).read()",
    "reads another student's submission": "return open(T['other']).read()",
    "appends to another student's submission": "return open(T['other'], 'a').write('pwned')",
    "rewrites the grader's code": "return open(T['grader_file'], 'a').write('# pwned')",
    "writes a file outside its tmpfs": """
worked = []
for path in T['markers']:
    try:
        open(path, 'w').write('escaped')
        worked.append(path)
    except OSError:
        pass
return worked
""",
    "makes a device node and opens it": """
os.mknod('dev-zero', 0o20600, os.makedev(1, 5))
return open('dev-zero', 'rb').read(1) == b'\\0'
""",
    "writes a sysctl": "return open('/proc/sys/vm/drop_caches', 'w').write('1')",
    "triggers sysrq": "return open('/proc/sysrq-trigger', 'w').write('h')",
    # other processes
    "kills the canary": "os.kill(T['canary'], signal.SIGKILL); return True",
    "kills every process": "os.kill(-1, signal.SIGKILL); return True",
    "signals the canary with pidfd_send_signal": """
fd = os.pidfd_open(T['canary'])
signal.pidfd_send_signal(fd, signal.SIGKILL)
return True
""",
    "signals the canary with rt_sigqueueinfo": """
info = ctypes.create_string_buffer(128)
ctypes.memmove(info, (ctypes.c_int * 3)(9, 0, -1), 12)
return libc.syscall(nr(129, 138), T['canary'], 9, info) == 0
""",
    "signals the canary with tgkill":
        "return libc.syscall(nr(234, 131), T['canary'], T['canary'], 9) == 0",
    "traces the canary": "return libc.ptrace(0x4206, T['canary'], None, None) == 0",
    "opens the canary's memory": "return open(f\"/proc/{T['canary']}/mem\", 'rb')",
    "reads the canary's memory with process_vm_readv": """
return canary_memory(nr(310, 270), 'r')
""",
    "writes the canary's memory with process_vm_writev": """
return canary_memory(nr(311, 271), 'rw')
""",
    "traces its parent": "return libc.ptrace(0x4206, os.getppid(), None, None) == 0",
    "kills the grading command": "os.kill(T['grader'], signal.SIGKILL); return True",
    "forks": """
pid = os.fork()
if pid == 0:
    os._exit(0)
return True
""",
    "runs a subprocess": "return subprocess.run(['/bin/true']).returncode == 0",
    "starts a thread bomb": """
import threading
event = threading.Event()
threads = [threading.Thread(target=event.wait) for _ in range(5000)]
for thread in threads:
    thread.start()
event.set()
return True
""",
    # kernel interfaces
    "sets up io_uring": """
params = ctypes.create_string_buffer(120)
return libc.syscall(425, 4, params) >= 0
""",
    "opens a userfaultfd": "return libc.syscall(nr(323, 282), 0) >= 0",
    "creates a bpf map": """
attr = ctypes.create_string_buffer(128)
ctypes.memmove(attr, (ctypes.c_uint32 * 4)(2, 4, 4, 1), 16)
return libc.syscall(nr(321, 280), 0, attr, 128) >= 0
""",
    "opens a perf event": """
attr = ctypes.create_string_buffer(128)
ctypes.memmove(attr, (ctypes.c_uint32 * 2)(1, 128), 8)  # software clock, attr size
ctypes.memmove(ctypes.addressof(attr) + 40, (ctypes.c_uint64 * 1)(0b1100000), 8)  # user only
return libc.syscall(nr(298, 241), attr, 0, -1, -1, 0) >= 0
""",
    "joins a keyring": "return libc.syscall(nr(250, 219), 1, None) >= 0",
    "becomes root": "os.setuid(0); return True",
    "keeps a capability": """
status = open('/proc/self/status').read()
sets = [line.split()[1] for line in status.splitlines() if line.startswith('Cap')]
return [s for s in sets if int(s, 16)]
""",
    # Allowed (CUDA needs it) but counted: the judge stops the process past its limit.
    "touches 6 GiB of shared memory": """
chunk = mmap.mmap(-1, 6 << 30, flags=mmap.MAP_SHARED)
chunk[:: 4096] = b'x' * (6 << 18)
return True
""",
    "allocates 6 GiB": "return bytearray(6 * 2**30)",
    # the network and the grader's secrets
    "connects to the host over TCP":
        "return socket.create_connection(('127.0.0.1', T['tcp_port']), timeout=2)",
    "connects to the host's abstract Unix socket": """
client = socket.socket(socket.AF_UNIX)
client.connect('\\0' + T['abstract_socket'])
return True
""",
    "opens a vsock to the hypervisor": "return socket.socket(40, socket.SOCK_STREAM)",
    # T holds the secret's hash and its public prefix, never the secret itself.
    "reads the grader's secret from its environment": """
import hashlib
values = list(os.environ.values())
try:
    values += open('/proc/self/environ').read().split('\\0')
except OSError:
    pass
return any(hashlib.sha256(v.split('=', 1)[-1].encode()).hexdigest() == T['secret_sha256']
           for v in values)
""",
    "finds the grader's secret in its memory": """
import hashlib, re
prefix, length = T['secret_prefix'].encode(), T['secret_length']
for line in open('/proc/self/maps'):
    span, perms = line.split()[:2]
    if not perms.startswith('r') or '[v' in line:
        continue
    start, end = (int(x, 16) for x in span.split('-'))
    for at in range(start, end, 1 << 24):
        chunk = ctypes.string_at(at, min((1 << 24) + length, end - at))
        for found in re.finditer(re.escape(prefix), chunk):
            candidate = chunk[found.start():found.start() + length]
            if hashlib.sha256(candidate).hexdigest() == T['secret_sha256']:
                return True
""",
    # foreign ABIs: the filter kills the process, so the cell reports that
    "calls the kernel through the i386 ABI": """
if not X86:
    return False
code = mmap.mmap(-1, 4096, flags=mmap.MAP_PRIVATE, prot=7)
code.write(bytes([0xB8, 20, 0, 0, 0, 0xCD, 0x80, 0xC3]))  # mov eax, getpid; int 0x80; ret
return ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(code)))() > 0
""",
    "calls the kernel through the x32 ABI":
        "return X86 and libc.syscall(0x40000000 | 39) > 0",
}

# Refused by killing the process (on x86-64), not with an error.
KILLED = {"calls the kernel through the i386 ABI", "calls the kernel through the x32 ABI"}
# Attempts whose process the judge's memory watch stops (on every architecture).
OVER_MEMORY = {"touches 6 GiB of shared memory"}


def attack_cell(name: str, targets: dict) -> str:
    """The answer cell that makes the attempt and, if it worked, gives a wrong answer."""
    return attempt_cell(ATTACKS[name], targets)


def attempt_cell(attempt: str, targets: dict) -> str:
    """``attack_cell`` for an attempt's own body (``T`` holds the targets; return truthy
    if it worked)."""
    body = textwrap.indent(textwrap.dedent(attempt).strip(), "    ")
    return (f"T = {targets!r}\n{_PRELUDE}\ndef _attack(T):\n{body}\n"
            "try:\n    _worked = _attack(T)\n"
            "except BaseException as _error:\n    _worked = False\n"
            "    print('refused:', type(_error).__name__, str(_error)[:200])\n"
            "else:\n    print('worked' if _worked else 'refused: nothing happened')\n"
            "if _worked:\n    def double(x):\n        return x + 1\n")
