/* The C side of Fixtures/symbolication's app: its entry point and a plain C function. */
long demo_work(long) __asm__("_$s4Demo4workyBi64_Bi64_F");

__attribute__((noinline)) long handle_request(long value) {
    return demo_work(value + 1);
}

void start(void) __asm__("_start");
void start(void) {
    handle_request(41);
    for (;;) {}
}
