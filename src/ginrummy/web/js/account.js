// The account dialog of the start page (docs/accounts.md): create an account with a
// passkey, sign in with a passkey or a one-time code, show a code for another device,
// list the signed-in devices and sign any out. Its own <dialog>, outside the page the
// renderer draws; a sign-in keeps the new device token and reloads the page.
import { api, adoptToken, ApiError, forgetToken, storedToken } from "./api.js";
import { t } from "./i18n.js";
import { signInLink } from "./pages/signin.js";
import { actionButton as button, h as el } from "./dom.js";

/** @param {string} text */
function fromB64url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** @param {ArrayBuffer|ArrayBufferView} data */
function b64url(data) {
  const bytes =
    data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let raw = "";
  for (const b of bytes) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** @param {any} options   PublicKeyCredentialCreationOptions as JSON */
async function createPasskey(options) {
  const publicKey = {
    ...options,
    challenge: fromB64url(options.challenge),
    user: { ...options.user, id: fromB64url(options.user.id) },
    excludeCredentials: (options.excludeCredentials ?? []).map(
      (/** @type {any} */ c) => ({ ...c, id: fromB64url(c.id) }),
    ),
  };
  const cred = /** @type {any} */ (await navigator.credentials.create({ publicKey }));
  return {
    id: cred.id,
    rawId: b64url(cred.rawId),
    type: cred.type,
    response: {
      clientDataJSON: b64url(cred.response.clientDataJSON),
      attestationObject: b64url(cred.response.attestationObject),
    },
    clientExtensionResults: {},
  };
}

/** @param {any} options   PublicKeyCredentialRequestOptions as JSON */
async function usePasskey(options) {
  const publicKey = {
    ...options,
    challenge: fromB64url(options.challenge),
    allowCredentials: (options.allowCredentials ?? []).map((/** @type {any} */ c) => ({
      ...c,
      id: fromB64url(c.id),
    })),
  };
  const cred = /** @type {any} */ (await navigator.credentials.get({ publicKey }));
  const r = cred.response;
  return {
    id: cred.id,
    rawId: b64url(cred.rawId),
    type: cred.type,
    response: {
      clientDataJSON: b64url(r.clientDataJSON),
      authenticatorData: b64url(r.authenticatorData),
      signature: b64url(r.signature),
      userHandle: r.userHandle ? b64url(r.userHandle) : null,
    },
    clientExtensionResults: {},
  };
}

/** An answer of one of the account's passkeys, just now: what adding a passkey and
 * signing out another device need (docs/accounts.md). */
async function confirmed() {
  return usePasskey((await api.confirmOptions()).options);
}

/** A new passkey's options: asked without a confirmation first (an account with no
 * passkey, or a device signed in for a week, needs none: docs/accounts.md, "A lost
 * passkey is not a lost account"), and with one of the account's passkeys when the
 * server says `confirm_needed`. */
async function passkeyOptions() {
  try {
    return (await api.passkeyOptions(null, null)).options;
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "confirm_needed") throw err;
    return (await api.passkeyOptions(null, await confirmed())).options;
  }
}

/** @param {unknown} err */
function problem(err) {
  if (
    err instanceof ApiError &&
    err.code &&
    t(`account.error.${err.code}`) !== `account.error.${err.code}`
  )
    return t(`account.error.${err.code}`);
  if (err instanceof ApiError) return err.message || err.code;
  if (err instanceof DOMException) return t("account.error.cancelled");
  return String(err);
}

// -- a sign-in link with the code (issue 22, part 1; pages/signin.js) ----------------

/**
 * A code shown for another device: the code to type, and the link that carries it, with
 * a button that copies the link.
 * @param {string} code
 * @returns {(HTMLElement|string)[]}
 */
function shownCode(code) {
  const link = signInLink(code);
  const copied = el("span", { role: "status" });
  return [
    t("account.code_is", { code }),
    el("br"),
    t("account.or_link"),
    " ",
    el("code", { class: "signin-link" }, link),
    " ",
    button(t("account.copy_link"), async () => {
      try {
        await navigator.clipboard.writeText(link);
        copied.textContent = t("account.link_copied");
      } catch {
        copied.textContent = t("account.link_not_copied");
      }
    }),
    " ",
    copied,
  ];
}

/** Open the account dialog (made once, kept in the document's body). */
export async function openAccount() {
  let dialog = /** @type {HTMLDialogElement|null} */ (
    document.getElementById("account-dialog")
  );
  if (!dialog) {
    dialog = /** @type {HTMLDialogElement} */ (
      el("dialog", {
        id: "account-dialog",
        class: "dialog",
        "aria-labelledby": "account-title",
      })
    );
    document.body.append(dialog);
  }
  const box = dialog;
  const status = el("p", { role: "status", class: "notice" });
  /** @param {unknown} err */
  const fail = (err) => {
    status.textContent = problem(err);
  };
  /** @param {{token: string}} answer */
  const signedIn = (answer) => {
    adoptToken(answer.token);
    location.reload();
  };

  async function draw() {
    const info = storedToken() ? await api.account() : { account: null, devices: [] };
    /** @type {HTMLElement[]} */
    const parts = [el("h2", { id: "account-title" }, t("account.title"))];
    if (info.account) {
      parts.push(el("p", {}, t("account.signed_in_as", { name: info.account.name })));
      const code = el("p", { class: "code", "aria-live": "polite" });
      parts.push(
        button(t("account.show_code"), async () => {
          try {
            const answer = await api.newCode();
            code.replaceChildren(...shownCode(answer.code));
          } catch (err) {
            fail(err);
          }
        }),
        code,
        button(t("account.add_passkey"), async () => {
          try {
            await api.registerPasskey(await createPasskey(await passkeyOptions()));
            status.textContent = t("account.passkey_added");
          } catch (err) {
            fail(err);
          }
        }),
        el("h3", {}, t("account.devices")),
      );
      const list = el("ul", { class: "devices" });
      for (const d of info.devices) {
        const label = d.this ? t("account.this_device", { label: d.label }) : d.label;
        list.append(
          el(
            "li",
            {},
            label + " ",
            button(
              t("account.sign_out"),
              async () => {
                try {
                  await api.signOut(d.id, d.this ? null : await confirmed());
                  if (d.this) location.reload();
                  else await draw();
                } catch (err) {
                  fail(err);
                }
              },
              { "aria-label": t("account.sign_out_device", { label }) },
            ),
          ),
        );
      }
      parts.push(list);
      // Civility (docs/accounts.md): the people this account blocks, each with Unblock.
      parts.push(await (await import("./civility.js")).blockedList());
    } else {
      const name = /** @type {HTMLInputElement} */ (
        el("input", {
          id: "account-name",
          autocomplete: "username webauthn",
          maxlength: "20",
        })
      );
      const code = /** @type {HTMLInputElement} */ (
        el("input", {
          id: "account-code",
          autocomplete: "one-time-code",
          maxlength: "20", // 12 characters, typed with dashes or spaces or not
        })
      );
      parts.push(
        el("p", {}, t("account.guest")),
        el("label", { for: "account-name" }, t("account.name")),
        name,
        button(t("account.create"), async () => {
          try {
            const { options } = await api.passkeyOptions(name.value);
            await api.registerPasskey(await createPasskey(options));
            location.reload();
          } catch (err) {
            fail(err);
          }
        }),
        el("h3", {}, t("account.have_one")),
        button(t("account.sign_in_passkey"), async () => {
          try {
            const { options } = await api.signInOptions();
            signedIn(await api.signIn(await usePasskey(options)));
          } catch (err) {
            fail(err);
          }
        }),
        el("label", { for: "account-code" }, t("account.code")),
        code,
        button(t("account.sign_in_code"), async () => {
          try {
            signedIn(await api.signInByCode(code.value));
          } catch (err) {
            fail(err);
          }
        }),
      );
    }
    parts.push(...yourData(Boolean(info.account), fail, status));
    parts.push(
      status,
      button(t("account.close"), async () => box.close()),
    );
    box.replaceChildren(...parts);
  }

  await draw();
  if (!box.open) box.showModal();
}

// -- your data (issue 22, part 5): download, delete, the privacy page ----------------

/** Save `data` as a JSON file the browser downloads. @param {unknown} data */
function saveJson(data) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = el("a", { href: url, download: "ginrummy-my-data.json" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Ask before deleting: a dialog of its own that names what happens.
 * @returns {Promise<boolean>}
 */
function confirmDeletion() {
  const ask = /** @type {HTMLDialogElement} */ (
    el("dialog", {
      class: "dialog",
      role: "alertdialog",
      "aria-labelledby": "delete-title",
      "aria-describedby": "delete-text",
    })
  );
  document.body.append(ask);
  return new Promise((resolve) => {
    /** @param {boolean} yes */
    const answer = (yes) => {
      ask.close();
      ask.remove();
      resolve(yes);
    };
    ask.addEventListener("cancel", () => answer(false));
    ask.append(
      el("h2", { id: "delete-title" }, t("data.confirm_title")),
      el("p", { id: "delete-text" }, t("data.confirm_text")),
      button(t("data.cancel"), async () => answer(false)),
      " ",
      button(t("data.confirm"), async () => answer(true)),
    );
    ask.showModal();
  });
}

/**
 * The dialog's "Your data" part: download, delete, and the privacy page's link.
 * @param {boolean} account
 * @param {(err: unknown) => void} fail
 * @param {HTMLElement} status
 * @returns {HTMLElement[]}
 */
function yourData(account, fail, status) {
  return [
    el("h3", {}, t("data.title")),
    el("p", {}, el("a", { href: "/privacy" }, t("data.privacy"))),
    button(t("data.download"), async () => {
      try {
        saveJson(await api.exportData());
        status.textContent = t("data.downloaded");
      } catch (err) {
        fail(err);
      }
    }),
    button(t(account ? "data.delete" : "data.delete_guest"), async () => {
      if (!(await confirmDeletion())) return;
      try {
        await api.deleteMe();
        forgetToken();
        status.textContent = t("data.deleted");
        location.assign("/");
      } catch (err) {
        fail(err);
      }
    }),
  ];
}
