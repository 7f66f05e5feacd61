// In-page confirmation dialogs (the native confirm() would block the webview's thread): a panel
// awaits `ask(...)` and gets back the id of the chosen choice, or "cancel" on Escape.

export interface Choice {
  id: string;
  label: string;
  kind?: "primary" | "danger" | "plain";
}

export interface Question {
  title: string;
  message: string;
  choices: Choice[];
}

interface Pending extends Question {
  answer: (choice: string) => void;
}

class Dialogs {
  pending = $state<Pending | null>(null);

  ask(question: Question): Promise<string> {
    this.pending?.answer("cancel");
    return new Promise((resolve) => {
      this.pending = {
        ...question,
        answer: (choice) => {
          this.pending = null;
          resolve(choice);
        },
      };
    });
  }
}

export const dialogs = new Dialogs();
