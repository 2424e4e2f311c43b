// "Copy" buttons: a button with data-copy="ID" copies the text of the element with that id.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const source = document.getElementById(button.dataset.copy);
  if (!source) return;
  const text = source.value !== undefined ? source.value : source.textContent;
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => source.select());
  else source.select();
});
