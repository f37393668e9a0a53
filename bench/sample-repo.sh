# Sourced by the benchmarks that run the hook samples (sidecar/src/test/resources/hook-samples), whose paths are under
# /home/dev/shop. sample_repo DIR makes DIR a git repository standing in for it: one committed file,
# src/main/java/shop/Cart.java.
sample_repo() {
  git init -q "$1"
  mkdir -p "$1/src/main/java/shop"
  echo 'class Cart {}' >"$1/src/main/java/shop/Cart.java"
  git -C "$1" add -A && git -C "$1" -c user.email=bench@example.com -c user.name=bench commit -qm init
}
