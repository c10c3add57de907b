/* headroom — Linux: the process behind a local listening TCP socket (platform.h, the root
 * trust check of a local ComfyUI): /proc/net/tcp and tcp6 give the socket's inode, the
 * links under /proc/PID/fd the process that holds it. */
#include "platform/platform.h"

#include "core/base/text.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_INODES 16

/* loopback or every address, as /proc/net/tcp{,6} write it (hex, host byte order words) */
static bool local_addr(const char *a, size_t n, bool v6)
{
    if (!v6)
        return n == 8 && (strncmp(a, "00000000", 8) == 0 || strncmp(a + 6, "7F", 2) == 0);
    if (n != 32)
        return false;
    if (strncmp(a, "00000000000000000000000000000000", 32) == 0 ||
        strncmp(a, "00000000000000000000000001000000", 32) == 0)
        return true;
    /* ::ffff:127.x.y.z */
    return strncmp(a, "0000000000000000FFFF0000", 24) == 0 && strncmp(a + 30, "7F", 2) == 0;
}

static size_t listen_inodes(const char *file, bool v6, unsigned port, unsigned long *ino, size_t have)
{
    FILE *f = fopen(file, "re");
    if (!f)
        return have;
    char line[512];
    if (!fgets(line, sizeof line, f)) { /* the header */
        fclose(f);
        return have;
    }
    while (have < MAX_INODES && fgets(line, sizeof line, f)) {
        char local[64], remote[64], st[8];
        unsigned long inode = 0;
        /* sl local rem st tx:rx tr:tm retrnsmt uid timeout inode */
        if (sscanf(line, " %*s %63s %63s %7s %*s %*s %*s %*s %*s %lu", local, remote, st, &inode) != 4)
            continue;
        char *colon = strchr(local, ':');
        if (!colon || strcmp(st, "0A") != 0 || inode == 0)
            continue;
        if (strtoul(colon + 1, NULL, 16) != port || !local_addr(local, (size_t)(colon - local), v6))
            continue;
        ino[have++] = inode;
    }
    fclose(f);
    return have;
}

static bool holds(const char *pid, const unsigned long *ino, size_t n)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%s/fd", pid);
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[128], link[64];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ssize_t k = readlink(path, link, sizeof link - 1);
        if (k <= 8 || strncmp(link, "socket:[", 8) != 0)
            continue;
        link[k] = '\0';
        unsigned long inode = strtoul(link + 8, NULL, 10);
        for (size_t i = 0; i < n && !found; i++)
            found = ino[i] == inode;
    }
    closedir(d);
    return found;
}

int hr_platform_local_listener(unsigned port, char *cmdline, size_t n, long long *pid)
{
    unsigned long ino[MAX_INODES];
    size_t k = listen_inodes("/proc/net/tcp", false, port, ino, 0);
    k = listen_inodes("/proc/net/tcp6", true, port, ino, k);
    if (n)
        cmdline[0] = '\0';
    *pid = -1;
    if (k == 0)
        return 0;
    DIR *d = opendir("/proc");
    if (!d)
        return HR_EIO;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9' || !holds(e->d_name, ino, k))
            continue;
        found = 1;
        *pid = strtoll(e->d_name, NULL, 10);
        char path[64];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t got = fd >= 0 && n > 1 ? read(fd, cmdline, n - 1) : 0;
        if (fd >= 0)
            close(fd);
        if (got < 0)
            got = 0;
        if (n) {
            cmdline[got] = '\0';
            for (ssize_t i = 0; i < got; i++)
                if (cmdline[i] == '\0')
                    cmdline[i] = ' ';
            while (got > 0 && cmdline[got - 1] == ' ')
                cmdline[--got] = '\0';
            hr_text_one_line(cmdline);
        }
    }
    closedir(d);
    return found;
}
