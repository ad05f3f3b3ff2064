// Die Regeln in Kürze, auf Deutsch (dieselbe Form wie RULES in ../rules.js).
export default {
  pickpic: {
    title: "Pick Pic", players: "3 bis 5 Spieler",
    aim: "Finde für das Foto jedes Mitspielers die passendste Karte und ordne die Karten, die du für dein eigenes bekommst.",
    steps: [
      "In jeder Runde liegt vor jedem Spieler ein Foto offen aus.",
      "Geben: Du bekommst eine Hand Karten und gibst jedem anderen Spieler eine (zu dritt zwei), die am besten zu seinem Foto passen. Alle geben gleichzeitig und geheim.",
      "Ordnen: Eine zufällige Karte kommt zu den Karten, die du bekommen hast. Ordne deinen Stapel, die passendste für dein Foto zuerst, ohne zu wissen, wer was gegeben hat.",
      "Wertung: Jede Karte über der Zufallskarte bringt ihrem Geber 1 Punkt und dir 1 Punkt; wer deine oberste Karte gegeben hat, bekommt 2. Unter der Zufallskarte zählt nichts; legst du die Zufallskarte ans Ende, bekommst du 1 Punkt.",
      "Wer zuerst die Zielpunktzahl erreicht, gewinnt (bei Gleichstand wird der Sieg geteilt).",
    ],
  },
  photograph: {
    title: "Photograph", players: "2 bis 4 Spieler",
    aim: "Fülle deine Filmrollen mit gut geordneten Aufnahmen jeder Farbe; vermeide verwackelte Aufnahmen.",
    steps: [
      "Dein Zug hat zwei Schritte. Nehmen: Wähle ein Reihenende der Auslage und nimm von dort 1 bis 3 Karten auf die Hand (von rechts).",
      "Film spulen: Versetze eine Karte deiner Hand an einen neuen Platz. Dann werden so viele Karten, wie du genommen hast, von links aus deiner Hand auf deine Filmrollen gespielt.",
      "Eine Filmrolle einer Farbe muss auf- oder absteigen, 1 bis 3 über die vorige Karte hinaus; eine Karte, die nicht passt, ist eine verwackelte Aufnahme (sie zählt gegen dich).",
      "Wer zuerst 4 Aufnahmen in einer Farbe hat (zu viert 3), bekommt die Volltreffer-Karte dieser Farbe.",
      "Wenn die Sonnenuntergangskarte erscheint, endet das Spiel bald darauf; die beste Summe aus Filmrollen und Volltreffer-Karten gewinnt.",
    ],
  },
  provence: {
    title: "Walking in Provence", players: "2 bis 5 Spieler, 10 Runden",
    aim: "Baue eine Landschaft der Provence und schicke deinen Fotografen und deine Drohne los, um die schönsten Fotos zu machen.",
    steps: [
      "In jeder Runde wählen alle gleichzeitig eine Szenenkarte und legen sie an ihre Landschaft (gedreht oder darunter geschoben), dann geben sie den Rest ihrer Hand weiter.",
      "Dann wandern alle: Fotograf und Drohne ziehen jeweils auf eine neue Wiese oder bleiben stehen.",
      "Eine Fotokarte ist erfüllt, wenn die verlangten Felder im Bildausschnitt deines Fotografen (oder deiner Drohne) liegen: Lege einen Marker auf ihren besten freien Platz.",
      "Am Ende punkten Lavendel, Weizen, Sonnenblumen, Dörfer, Fotos und die beiden Zielkarten; die meisten Punkte gewinnen.",
    ],
  },
  photoshoot: {
    title: "Photoshoot", players: "2 bis 6 Spieler, in Echtzeit",
    aim: "Ordne die neun Tiere des Quadrats so an, wie es das Fotoziel zeigt, bevor die Sanduhr abgelaufen ist.",
    steps: [
      "Bereit: Sobald die Fotografen und ein Mitglied des Kontrollteams bereit sind, läuft die Sanduhr.",
      "Die Fotografen sind abwechselnd am Zug: Tausche zwei Figuren oder lass Jo eine Reihe schieben; ruf „Photo!“, wenn das Ziel steht.",
      "Effektkarten bringen Rituale ins Spiel (lächeln, klatschen, einen Satz sagen …). Eines zu vergessen ist ein Fehler.",
      "Das Kontrollteam darf die letzte Aktion anfechten: Eine berechtigte Anfechtung gewinnt den Kamera-Marker, eine falsche gibt ihn den Fotografen.",
      "Zu zweit oder zu dritt spielt ihr gemeinsam gegen die Sanduhr (der Schiedsrichter findet Fehler); mit 4 bis 6 Spielern fotografieren zwei Teams abwechselnd.",
    ],
  },
};
