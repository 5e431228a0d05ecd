/* A random player as a course bot is written: stdio, one line in, one line
 * out, a flush after every answer, no checking beyond what it needs to stay
 * legal. It stands in for the course judge's own C++ random player (not
 * public) in benchmarks/judge.py, so that the judge's speed is measured
 * against a player that costs next to nothing, as in the figures.
 *
 * Protocol: docs/PROTOCOL.md. Usage: random_player [SEED [DELAY_US]]: with
 * DELAY_US it sleeps that many microseconds before each answer, an honest
 * player that thinks (the benchmark's time-forfeit fidelity).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_COLUMNS 128

static int columns, rows, heights[MAX_COLUMNS];
static useconds_t delay;

static void play(int column) {
    if (column >= 0 && column < columns) heights[column]++;
}

static void answer(void) {
    int free_columns[MAX_COLUMNS], count = 0;
    for (int col = 0; col < columns; col++)
        if (heights[col] < rows) free_columns[count++] = col;
    if (count == 0) return; /* the referee sends a result word instead */
    int column = free_columns[rand() % count];
    if (delay) usleep(delay);
    play(column);
    printf("%d\n", column);
    fflush(stdout);
}

int main(int argc, char **argv) {
    srand(argc > 1 ? (unsigned)atoi(argv[1]) : (unsigned)time(NULL) ^ (unsigned)getpid());
    delay = argc > 2 ? (useconds_t)atol(argv[2]) : 0;
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "salir", 5) == 0) {
            printf("listo\n");
            fflush(stdout);
            return 0;
        }
        /* colours line: a new game; then the size and who starts */
        int c, p;
        if (!fgets(line, sizeof line, stdin) || sscanf(line, "%d %d %d %d", &columns, &rows, &c, &p) != 4
            || columns < 1 || columns > MAX_COLUMNS)
            return 2;
        memset(heights, 0, sizeof heights);
        if (!fgets(line, sizeof line, stdin)) return 2;
        /* the openings extension: plies after vos/el */
        char *cursor = line + (line[0] == 'v' ? 3 : 2);
        char *end;
        for (long ply = strtol(cursor, &end, 10); end != cursor; ply = strtol(cursor, &end, 10)) {
            play((int)ply);
            cursor = end;
        }
        if (line[0] == 'v') answer();
        while (fgets(line, sizeof line, stdin)) {
            if (line[0] < '0' || line[0] > '9') break; /* a result word: the game is over */
            play(atoi(line));
            answer();
        }
    }
    return 0;
}
