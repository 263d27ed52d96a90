// Short sounds made on the spot with Web Audio (no sound files): a soft click for a move, a
// lower knock for a capture, a rising pair of notes when the game ends. A browser lets a page
// make sound only after the player has touched it; until then they are skipped quietly.

export class Sounds {
  constructor() {
    this.enabled = true;
    this.context = null;
    /// How many sounds were asked for, by kind: for tests (headless browsers play nothing).
    this.played = { move: 0, capture: 0, end: 0 };
    const wake = () => {
      try {
        this.context ??= new AudioContext();
        if (this.context.state === "suspended") this.context.resume();
      } catch (error) {
        // No Web Audio here: the game goes on in silence.
      }
    };
    document.addEventListener("pointerdown", wake, { capture: true });
    document.addEventListener("keydown", wake, { capture: true });
  }

  /// The sound for the step from `before` to `after` (two states of a game).
  move(before, after) {
    const kind = after.result && !before.result ? "end"
      : after.pieces.length < before.pieces.length ? "capture" : "move";
    this.play(kind);
  }

  play(kind) {
    this.played[kind] += 1;
    if (!this.enabled) return;
    try {
      if (!this.context || this.context.state !== "running") return;
      const tones = { move: [[660, 0, 0.05]], capture: [[330, 0, 0.09]], end: [[523, 0, 0.15], [784, 0.16, 0.25]] };
      for (const [frequency, start, length] of tones[kind]) this.tone(frequency, start, length);
    } catch (error) {
      // No Web Audio here: the game goes on in silence.
    }
  }

  tone(frequency, start, length) {
    const at = this.context.currentTime + start;
    const oscillator = this.context.createOscillator();
    const gain = this.context.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + length);
    oscillator.connect(gain).connect(this.context.destination);
    oscillator.start(at);
    oscillator.stop(at + length);
  }
}
