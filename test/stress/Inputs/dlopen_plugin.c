// A shared object loaded and unloaded again and again by dlopen_cycles.c.
int PluginCounter;

int PluginTouch(int V) {
  PluginCounter += V;
  return PluginCounter;
}
