// Les règles en bref, en français (même forme que RULES dans ../rules.js).
export default {
  pickpic: {
    title: "Pick Pic", players: "3 à 5 joueurs",
    aim: "Trouvez la carte qui correspond le mieux à la photo de chaque joueur, et classez celles que l'on vous donne pour la vôtre.",
    steps: [
      "À chaque manche, une photo est retournée face visible devant chaque joueur.",
      "Donner : vous recevez une main de cartes et en donnez une (ou deux, à trois joueurs) à chacun des autres joueurs, celles qui vont le mieux avec sa photo. Tout le monde donne en même temps, en secret.",
      "Classer : une carte tirée au hasard rejoint les cartes que vous avez reçues. Classez votre pile, la plus juste pour votre photo en premier, sans savoir qui a donné quoi.",
      "Décompte : chaque carte classée au-dessus de la carte au hasard rapporte 1 point à celui qui l'a donnée et 1 point à vous ; celui qui a donné votre première carte marque 2 points. Rien ne compte sous la carte au hasard ; placer la carte au hasard en dernier vous rapporte 1 point.",
      "Le premier joueur à atteindre le score visé gagne (en cas d'égalité, la victoire est partagée).",
    ],
  },
  photograph: {
    title: "Photograph", players: "2 à 4 joueurs",
    aim: "Remplissez vos pellicules de clichés bien ordonnés dans chaque couleur ; évitez les photos floues.",
    steps: [
      "Votre tour compte deux actions. Prendre : choisissez une extrémité de rangée de l'étalage et prenez-y de 1 à 3 cartes dans votre main (par la droite).",
      "Avancer la pellicule : déplacez une carte de votre main à une nouvelle place. Ensuite, autant de cartes que vous en avez prises sont jouées depuis la gauche de votre main sur vos pellicules.",
      "Une pellicule d'une couleur doit monter ou descendre, de 1 à 3 au-delà de la carte précédente ; une carte qui ne convient pas est une photo floue (elle compte contre vous).",
      "Le premier à avoir 4 clichés dans une couleur (3 à quatre joueurs) prend la carte Bon cliché de cette couleur.",
      "Quand la carte Coucher de soleil apparaît, la partie se termine peu après ; le meilleur total des pellicules et des cartes Bon cliché l'emporte.",
    ],
  },
  provence: {
    title: "Walking in Provence", players: "2 à 5 joueurs, 10 manches",
    aim: "Construisez un paysage de Provence, puis promenez votre photographe et votre drone pour prendre les plus belles photos.",
    steps: [
      "À chaque manche, tout le monde choisit en même temps une carte Scène et la pose sur son paysage (tournée, ou glissée dessous), puis passe le reste de sa main.",
      "Puis tout le monde se promène : le photographe et le drone vont chacun sur une nouvelle prairie, ou restent sur place.",
      "Une carte Photo est réalisée quand les cases qu'elle demande se trouvent dans le cadre de votre photographe (ou de votre drone) : posez un marqueur sur sa meilleure place libre.",
      "À la fin, la lavande, le blé, les tournesols, les villages, les photos et les deux cartes Objectif rapportent des points ; le plus de points l'emporte.",
    ],
  },
  photoshoot: {
    title: "Photoshoot", players: "2 à 6 joueurs, en temps réel",
    aim: "Placez les neuf animaux du carré comme le montre l'objectif photo avant que le sablier ne soit écoulé.",
    steps: [
      "Prêts : quand les photographes et un membre de l'équipe de contrôle sont prêts, le sablier est retourné.",
      "Les photographes jouent à tour de rôle : échangez deux personnages, ou laissez Jo pousser une rangée ; criez « Photo ! » quand l'objectif est en place.",
      "Les cartes Effet ajoutent des rituels (sourire, applaudir, dire une phrase…). En oublier un est une erreur.",
      "L'équipe de contrôle peut contester la dernière action : une contestation juste lui fait gagner le jeton Appareil photo, une contestation fausse le donne aux photographes.",
      "À 2 ou 3 joueurs, vous jouez ensemble contre le sablier (l'arbitre relève les erreurs) ; de 4 à 6 joueurs, deux équipes photographient à tour de rôle.",
    ],
  },
};
